import type { OrganizationAccess } from '../common/auth/principal';
import type { TeamEntity } from './entities/team.entity';

/** Secret teams (the default) show only to their own members and to owners. */
export function seesTeam(access: OrganizationAccess, team: Pick<TeamEntity, 'id' | 'visibility'>): boolean {
  return team.visibility !== 'secret' || access.owner || access.teamIds.includes(team.id);
}

/**
 * The secret teams a principal sees, for a query's filter: undefined for all of them (owners),
 * else its own teams (the others stay hidden, with everything that names them).
 */
export function secretTeamsSeenBy(access: OrganizationAccess): readonly string[] | undefined {
  return access.owner ? undefined : access.teamIds;
}

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, ObjectLiteral, Repository, SelectQueryBuilder } from 'typeorm';
import { IdSubquery } from '../common/sql/id-subquery';
import { likeCondition, likePattern } from '../common/sql/like';
import { paginate, Page } from '../common/sql/paginate';
import { lockRow } from '../common/sql/transaction';
import { PageParams } from '../common/jsonapi/pagination';
import { TeamMembershipEntity } from './entities/team-membership.entity';
import { TeamWorkspaceEntity } from './entities/team-workspace.entity';
import { TeamEntity } from './entities/team.entity';

/** Keeps the rows of teams that are not secret, and of the secret ones among `secretOf`. */
function onlyVisibleTeams<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  alias: string,
  secretOf: readonly string[],
): SelectQueryBuilder<T> {
  return qb.andWhere(
    secretOf.length
      ? `(${alias}.visibility <> 'secret' OR ${alias}.id IN (:...secretOf))`
      : `${alias}.visibility <> 'secret'`,
    { secretOf },
  );
}

@Injectable()
export class TeamsRepository {
  constructor(
    @InjectRepository(TeamEntity) private readonly teams: Repository<TeamEntity>,
    @InjectRepository(TeamMembershipEntity) private readonly memberships: Repository<TeamMembershipEntity>,
    @InjectRepository(TeamWorkspaceEntity) private readonly teamWorkspaces: Repository<TeamWorkspaceEntity>,
  ) {}

  /** `(SELECT organization_id …)` of the organizations the user is in a team of, to embed in a list. */
  memberOrganizationIds(userId: string): IdSubquery {
    const sql = this.teams.manager
      .createQueryBuilder()
      .subQuery()
      .select('t.organization_id')
      .from(TeamEntity, 't')
      .innerJoin(TeamMembershipEntity, 'm', 'm.team_id = t.id')
      .where('m.user_id = :userId')
      .getQuery();
    return { sql, parameters: { userId } };
  }

  /** `(SELECT id …)` of an organization's teams, to embed in a list. */
  teamIdsOf(organizationId: string, nameLike?: string): IdSubquery {
    const qb = this.teams.manager
      .createQueryBuilder()
      .subQuery()
      .select('ot.id')
      .from(TeamEntity, 'ot')
      .where('ot.organization_id = :teamsOrganizationId');
    if (!nameLike) return { sql: qb.getQuery(), parameters: { teamsOrganizationId: organizationId } };
    return {
      sql: qb.andWhere(likeCondition('ot.name', 'teamsNameLike')).getQuery(),
      parameters: { teamsOrganizationId: organizationId, teamsNameLike: likePattern(nameLike) },
    };
  }

  /** Organizations whose owners team has this user as its only member, one query. */
  async solelyOwnedOrganizationIds(manager: EntityManager, userId: string): Promise<string[]> {
    const rows = await manager
      .createQueryBuilder()
      .select('t.organization_id', 'organizationId')
      .from(TeamEntity, 't')
      .innerJoin(TeamMembershipEntity, 'm', 'm.team_id = t.id')
      // Booleans are stored as 1/0 on both dialects.
      .where('t.is_owners = 1')
      .groupBy('t.id')
      .addGroupBy('t.organization_id')
      .having('COUNT(*) = 1 AND SUM(CASE WHEN m.user_id = :userId THEN 1 ELSE 0 END) = 1', { userId })
      .getRawMany<{ organizationId: string }>();
    return rows.map((r) => r.organizationId);
  }

  lock(manager: EntityManager, id: string): Promise<boolean> {
    return lockRow(manager, TeamEntity, id);
  }

  findTeam(id: string): Promise<TeamEntity | null> {
    return this.teams.findOne({ where: { id } });
  }

  /** Teams of an organization; with `secretOf`, secret teams only among those ids. */
  listTeams(
    organizationId: string,
    page: PageParams,
    secretOf?: readonly string[],
  ): Promise<Page<TeamEntity>> {
    const qb = this.teams
      .createQueryBuilder('t')
      .where('t.organization_id = :organizationId', { organizationId })
      .orderBy('t.name', 'ASC');
    if (secretOf) onlyVisibleTeams(qb, 't', secretOf);
    return paginate(qb, page);
  }

  /** Member user ids per team, one query. */
  async memberIds(teamIds: string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>(teamIds.map((id) => [id, []]));
    if (!teamIds.length) return out;
    const rows = await this.memberships.find({
      where: { teamId: In(teamIds) },
      order: { createdAt: 'ASC', userId: 'ASC' },
    });
    for (const r of rows) out.get(r.teamId)?.push(r.userId);
    return out;
  }

  saveTeam(manager: EntityManager, team: TeamEntity): Promise<TeamEntity> {
    return manager.getRepository(TeamEntity).save(team);
  }

  async deleteTeam(manager: EntityManager, id: string): Promise<void> {
    await manager.getRepository(TeamEntity).delete({ id });
  }

  async addMembers(manager: EntityManager, teamId: string, userIds: string[]): Promise<void> {
    const repo = manager.getRepository(TeamMembershipEntity);
    const existing = new Set(
      (await repo.find({ where: { teamId, userId: In(userIds) } })).map((m) => m.userId),
    );
    const now = new Date();
    const fresh = userIds
      .filter((u) => !existing.has(u))
      .map((userId) => ({ teamId, userId, createdAt: now }));
    if (fresh.length) await repo.insert(fresh);
  }

  async removeMembers(manager: EntityManager, teamId: string, userIds: string[]): Promise<void> {
    if (userIds.length)
      await manager.getRepository(TeamMembershipEntity).delete({ teamId, userId: In(userIds) });
  }

  countMembers(manager: EntityManager, teamId: string): Promise<number> {
    return manager.getRepository(TeamMembershipEntity).count({ where: { teamId } });
  }

  findTeamWorkspace(id: string): Promise<TeamWorkspaceEntity | null> {
    return this.teamWorkspaces.findOne({ where: { id } });
  }

  /** A workspace's team access; with `secretOf`, that of secret teams only among those ids. */
  listTeamWorkspaces(
    workspaceId: string,
    page: PageParams,
    secretOf?: readonly string[],
  ): Promise<Page<TeamWorkspaceEntity>> {
    const qb = this.teamWorkspaces
      .createQueryBuilder('tw')
      .where('tw.workspace_id = :workspaceId', { workspaceId })
      .orderBy('tw.created_at', 'ASC')
      .addOrderBy('tw.id', 'ASC');
    if (secretOf) onlyVisibleTeams(qb.innerJoin(TeamEntity, 't', 't.id = tw.team_id'), 't', secretOf);
    return paginate(qb, page);
  }

  saveTeamWorkspace(manager: EntityManager, tw: TeamWorkspaceEntity): Promise<TeamWorkspaceEntity> {
    return manager.getRepository(TeamWorkspaceEntity).save(tw);
  }

  async deleteTeamWorkspace(manager: EntityManager, id: string): Promise<void> {
    await manager.getRepository(TeamWorkspaceEntity).delete({ id });
  }
}

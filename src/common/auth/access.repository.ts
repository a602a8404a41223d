import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { TeamEntity } from '../../teams/entities/team.entity';
import { TeamMembershipEntity } from '../../teams/entities/team-membership.entity';
import { TeamWorkspaceEntity, WorkspaceAccessLevel } from '../../teams/entities/team-workspace.entity';
import { TokenEntity } from '../../tokens/entities/token.entity';
import { UserEntity } from '../../users/entities/user.entity';
import { WorkspaceEntity } from '../../workspaces/entities/workspace.entity';

export interface TokenRow {
  token: TokenEntity;
  user: UserEntity | null;
  team: TeamEntity | null;
}

/**
 * The read-only queries behind every permission decision. It reads across the identity tables
 * on purpose: one place answers "who is this and what may they do", for every module.
 */
@Injectable()
export class AccessRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async findToken(digest: string): Promise<TokenRow | null> {
    const token = await this.ds.getRepository(TokenEntity).findOne({ where: { digest } });
    if (!token) return null;
    const [user, team] = await Promise.all([
      token.userId ? this.ds.getRepository(UserEntity).findOne({ where: { id: token.userId } }) : null,
      token.teamId ? this.ds.getRepository(TeamEntity).findOne({ where: { id: token.teamId } }) : null,
    ]);
    return { token, user, team };
  }

  async teamsOfUserInOrganization(userId: string, organizationId: string): Promise<TeamEntity[]> {
    return this.ds
      .getRepository(TeamEntity)
      .createQueryBuilder('t')
      .innerJoin(TeamMembershipEntity, 'm', 'm.team_id = t.id')
      .where('m.user_id = :userId AND t.organization_id = :organizationId', { userId, organizationId })
      .getMany();
  }

  async team(teamId: string): Promise<TeamEntity | null> {
    return this.ds.getRepository(TeamEntity).findOne({ where: { id: teamId } });
  }

  /** Access rows of these teams on these workspaces, one query. */
  async accessGrants(
    teamIds: readonly string[],
    workspaceIds: readonly string[],
  ): Promise<{ workspaceId: string; access: WorkspaceAccessLevel }[]> {
    if (!teamIds.length || !workspaceIds.length) return [];
    return this.ds.getRepository(TeamWorkspaceEntity).find({
      select: { workspaceId: true, access: true },
      where: { teamId: In([...teamIds]), workspaceId: In([...workspaceIds]) },
    });
  }

  /** Which of these projects hold a workspace that one of these teams has access to, one query. */
  async projectsWithTeamWorkspaces(
    teamIds: readonly string[],
    projectIds: readonly string[],
  ): Promise<Set<string>> {
    if (!teamIds.length || !projectIds.length) return new Set();
    const rows: { projectId: string }[] = await this.ds
      .getRepository(TeamWorkspaceEntity)
      .createQueryBuilder('tw')
      .innerJoin(WorkspaceEntity, 'w', 'w.id = tw.workspace_id')
      .select('DISTINCT w.project_id', 'projectId')
      .where('tw.team_id IN (:...teamIds) AND w.project_id IN (:...projectIds)', { teamIds, projectIds })
      .getRawMany();
    return new Set(rows.map((r) => r.projectId));
  }

  /** Which of these organizations the user owns (is in their owners team), one query. */
  async ownedOrganizationIds(userId: string, organizationIds: readonly string[]): Promise<Set<string>> {
    if (!organizationIds.length) return new Set();
    const rows = await this.ds
      .getRepository(TeamEntity)
      .createQueryBuilder('t')
      .innerJoin(TeamMembershipEntity, 'm', 'm.team_id = t.id')
      .select('t.organization_id', 'organizationId')
      // Booleans are stored as 1/0 on both dialects.
      .where('m.user_id = :userId AND t.is_owners = 1 AND t.organization_id IN (:...organizationIds)', {
        userId,
        organizationIds,
      })
      .getRawMany<{ organizationId: string }>();
    return new Set(rows.map((r) => r.organizationId));
  }
}

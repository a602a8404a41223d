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

  async accessLevels(teamIds: readonly string[], workspaceId: string): Promise<WorkspaceAccessLevel[]> {
    if (!teamIds.length) return [];
    const rows = await this.ds.getRepository(TeamWorkspaceEntity).find({
      select: { access: true },
      where: { teamId: In([...teamIds]), workspaceId },
    });
    return rows.map((r) => r.access);
  }

  /** Granted levels per workspace for many workspaces at once (one query). */
  async accessLevelsByWorkspace(
    teamIds: readonly string[],
    workspaceIds: readonly string[],
  ): Promise<Map<string, WorkspaceAccessLevel[]>> {
    const byWorkspace = new Map<string, WorkspaceAccessLevel[]>();
    if (!teamIds.length || !workspaceIds.length) return byWorkspace;
    const rows = await this.ds.getRepository(TeamWorkspaceEntity).find({
      select: { workspaceId: true, access: true },
      where: { teamId: In([...teamIds]), workspaceId: In([...new Set(workspaceIds)]) },
    });
    for (const r of rows)
      byWorkspace.set(r.workspaceId, [...(byWorkspace.get(r.workspaceId) ?? []), r.access]);
    return byWorkspace;
  }

  async hasAnyWorkspaceInProject(teamIds: readonly string[], projectId: string): Promise<boolean> {
    if (!teamIds.length) return false;
    const count = await this.ds
      .getRepository(TeamWorkspaceEntity)
      .createQueryBuilder('tw')
      .innerJoin(WorkspaceEntity, 'w', 'w.id = tw.workspace_id')
      .where('tw.team_id IN (:...teamIds) AND w.project_id = :projectId', { teamIds, projectId })
      .getCount();
    return count > 0;
  }
}

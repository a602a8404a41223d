import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { RowReader } from '../sql/row-reader';
import { TeamEntity } from '../../teams/entities/team.entity';
import { TeamMembershipEntity } from '../../teams/entities/team-membership.entity';
import { TeamWorkspaceEntity, WorkspaceAccessLevel } from '../../teams/entities/team-workspace.entity';
import { TokenEntity } from '../../tokens/entities/token.entity';
import { UserEntity } from '../../users/entities/user.entity';
import { WorkspaceEntity } from '../../workspaces/entities/workspace.entity';
import { readRows } from '../../persistence/pool-reads';

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
  private readonly tokens: RowReader<TokenEntity>;
  private readonly users: RowReader<UserEntity>;
  private readonly teams: RowReader<TeamEntity>;
  private readonly tokenSql: string;

  constructor(@InjectDataSource() private readonly ds: DataSource) {
    this.tokens = new RowReader(ds, TokenEntity);
    this.users = new RowReader(ds, UserEntity);
    this.teams = new RowReader(ds, TeamEntity);
    this.tokenSql = `SELECT ${this.tokens.select('k')}, ${this.users.select('u')}, ${this.teams.select('t')}
        FROM ${this.tokens.table} k
        LEFT JOIN ${this.users.table} u ON u.id = k.user_id
        LEFT JOIN ${this.teams.table} t ON t.id = k.team_id
       WHERE k.digest = ?`;
  }

  /** The token with this digest and the user or team it belongs to: one round trip. */
  async findToken(digest: string): Promise<TokenRow | null> {
    const [row] = await readRows(this.ds, this.tokenSql, [digest]);
    if (!row) return null;
    return {
      token: this.tokens.hydrate(row, 'k'),
      user: row.u_id === null ? null : this.users.hydrate(row, 'u'),
      team: row.t_id === null ? null : this.teams.hydrate(row, 't'),
    };
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

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { RowReader } from '../sql/row-reader';
import { TeamEntity } from '../../teams/entities/team.entity';
import { WorkspaceAccessLevel } from './principal';
import { TokenEntity } from '../../tokens/entities/token.entity';
import { UserEntity } from '../../users/entities/user.entity';
import { readRows } from '../../persistence/pool-reads';

export interface TokenRow {
  token: TokenEntity;
  user: UserEntity | null;
  team: TeamEntity | null;
}

/**
 * The read-only queries behind every permission decision. It reads across the identity tables
 * on purpose: one place answers "who is this and what may they do", for every module. Plain SQL
 * throughout (RowReader and statement text on the pool): a request whose rights are not cached
 * runs these before anything else.
 */
@Injectable()
export class AccessRepository {
  private readonly tokens: RowReader<TokenEntity>;
  private readonly users: RowReader<UserEntity>;
  private readonly teams: RowReader<TeamEntity>;
  private readonly tokenSql: string;
  private readonly teamsOfUserSql: string;

  constructor(@InjectDataSource() private readonly ds: DataSource) {
    this.tokens = new RowReader(ds, TokenEntity);
    this.users = new RowReader(ds, UserEntity);
    this.teams = new RowReader(ds, TeamEntity);
    this.tokenSql = `SELECT ${this.tokens.select('k')}, ${this.users.select('u')}, ${this.teams.select('t')}
        FROM ${this.tokens.table} k
        LEFT JOIN ${this.users.table} u ON u.id = k.user_id
        LEFT JOIN ${this.teams.table} t ON t.id = k.team_id
       WHERE k.digest = ?`;
    this.teamsOfUserSql = `SELECT ${this.teams.select('t')} FROM ${this.teams.table} t
        INNER JOIN team_memberships m ON m.team_id = t.id
       WHERE m.user_id = ? AND t.organization_id = ?`;
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

  /** The teams of the organization that the user is a member of. */
  async teamsOfUserInOrganization(userId: string, organizationId: string): Promise<TeamEntity[]> {
    return this.teams.many(this.teamsOfUserSql, [userId, organizationId], 't');
  }

  async team(teamId: string): Promise<TeamEntity | null> {
    return this.teams.byId(teamId);
  }

  /** Access rows of these teams on these workspaces, one query. */
  async accessGrants(
    teamIds: readonly string[],
    workspaceIds: readonly string[],
  ): Promise<{ workspaceId: string; access: WorkspaceAccessLevel }[]> {
    if (!teamIds.length || !workspaceIds.length) return [];
    const rows = await readRows<{ workspace_id: string; access: WorkspaceAccessLevel }>(
      this.ds,
      `SELECT tw.workspace_id, tw.access FROM team_workspaces tw
        WHERE tw.team_id IN (${marks(teamIds)}) AND tw.workspace_id IN (${marks(workspaceIds)})`,
      [...teamIds, ...workspaceIds],
    );
    return rows.map((r) => ({ workspaceId: r.workspace_id, access: r.access }));
  }

  /** Which of these projects hold a workspace that one of these teams has access to, one query. */
  async projectsWithTeamWorkspaces(
    teamIds: readonly string[],
    projectIds: readonly string[],
  ): Promise<Set<string>> {
    if (!teamIds.length || !projectIds.length) return new Set();
    const rows = await readRows<{ project_id: string }>(
      this.ds,
      `SELECT DISTINCT w.project_id FROM team_workspaces tw
        INNER JOIN workspaces w ON w.id = tw.workspace_id
        WHERE tw.team_id IN (${marks(teamIds)}) AND w.project_id IN (${marks(projectIds)})`,
      [...teamIds, ...projectIds],
    );
    return new Set(rows.map((r) => r.project_id));
  }

  /** Which of these organizations the user owns (is in their owners team), one query. */
  async ownedOrganizationIds(userId: string, organizationIds: readonly string[]): Promise<Set<string>> {
    if (!organizationIds.length) return new Set();
    const rows = await readRows<{ organization_id: string }>(
      this.ds,
      // Booleans are stored as 1/0 on both dialects.
      `SELECT t.organization_id FROM teams t
        INNER JOIN team_memberships m ON m.team_id = t.id
        WHERE m.user_id = ? AND t.is_owners = 1 AND t.organization_id IN (${marks(organizationIds)})`,
      [userId, ...organizationIds],
    );
    return new Set(rows.map((r) => r.organization_id));
  }
}

/** `?, ?, …`: one mark per value of a list. */
function marks(values: readonly unknown[]): string {
  return values.map(() => '?').join(', ');
}

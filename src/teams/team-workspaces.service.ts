import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PermissionService } from '../common/auth/permission.service';
import { Principal } from '../common/auth/principal';
import { Page } from '../common/sql/paginate';
import { inOneStatement, inTransaction } from '../common/sql/transaction';
import { whenDuplicate } from '../common/errors/db-errors';
import { invalid, notFound } from '../common/errors/domain-error';
import { ParsedBody } from '../common/jsonapi/body';
import { PageParams } from '../common/jsonapi/pagination';
import { newId } from '../common/ids';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { TeamWorkspaceAttributes } from './dto/team-workspace-attributes.dto';
import { TeamWorkspaceEntity } from './entities/team-workspace.entity';
import { secretTeamsSeenBy, seesTeam } from './team-visibility';
import { TeamsRepository } from './teams.repository';

/** Team access to workspaces: managed by whoever administers the workspace. */
@Injectable()
export class TeamWorkspacesService {
  constructor(
    private readonly repo: TeamsRepository,
    private readonly permissions: PermissionService,
    private readonly workspaces: WorkspacesService,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  /** The workspace's team access, but a secret team's only to those who see the team. */
  async list(p: Principal, workspaceId: string, page: PageParams): Promise<Page<TeamWorkspaceEntity>> {
    const ws = await this.workspaces.requireAccess(p, workspaceId, 'read');
    const access = await this.permissions.requireMember(p, ws.organizationId);
    return this.repo.listTeamWorkspaces(ws.id, page, secretTeamsSeenBy(access));
  }

  /** 404 unless the principal reads the workspace and sees the team (as for the team itself). */
  async show(p: Principal, id: string): Promise<TeamWorkspaceEntity> {
    const tw = await this.repo.findTeamWorkspace(id);
    if (!tw) throw notFound();
    const ws = await this.workspaces.requireAccess(p, tw.workspaceId, 'read');
    const [team, access] = await Promise.all([
      this.repo.findTeam(tw.teamId),
      this.permissions.requireMember(p, ws.organizationId),
    ]);
    if (!team || !seesTeam(access, team)) throw notFound();
    return tw;
  }

  async create(p: Principal, body: ParsedBody<TeamWorkspaceAttributes>): Promise<TeamWorkspaceEntity> {
    const teamRef = body.toOne('team', 'teams');
    const wsRef = body.toOne('workspace', 'workspaces');
    if (!teamRef) throw invalid('Team relationship is required', '/data/relationships/team');
    if (!wsRef) throw invalid('Workspace relationship is required', '/data/relationships/workspace');
    const ws = await this.workspaces.requireAccess(p, wsRef.id, 'admin');
    const [team, access] = await Promise.all([
      this.repo.findTeam(teamRef.id),
      this.permissions.requireMember(p, ws.organizationId),
    ]);
    // A secret team the principal does not see is answered as a missing one.
    if (!team || team.organizationId !== ws.organizationId || !seesTeam(access, team)) {
      throw invalid('Team not found', '/data/relationships/team/data/id');
    }
    const now = new Date();
    const tw = Object.assign(new TeamWorkspaceEntity(), {
      id: newId('tws'),
      teamId: team.id,
      workspaceId: ws.id,
      access: body.attributes.access,
      createdAt: now,
      updatedAt: now,
    });
    const saved = await whenDuplicate(
      () => inTransaction(this.ds, (m) => this.repo.saveTeamWorkspace(m, tw)),
      () =>
        invalid('Team already has access to this workspace', '/data/relationships/team', 'TEAM_ACCESS_TAKEN'),
    );
    return saved;
  }

  async update(
    p: Principal,
    id: string,
    body: ParsedBody<TeamWorkspaceAttributes>,
  ): Promise<TeamWorkspaceEntity> {
    const tw = await this.show(p, id);
    await this.workspaces.requireAccess(p, tw.workspaceId, 'admin');
    tw.access = body.attributes.access;
    tw.updatedAt = new Date();
    return inTransaction(this.ds, (m) => this.repo.saveTeamWorkspace(m, tw));
  }

  async delete(p: Principal, id: string): Promise<void> {
    const tw = await this.show(p, id);
    await this.workspaces.requireAccess(p, tw.workspaceId, 'admin');
    await inOneStatement(this.ds, (m) => this.repo.deleteTeamWorkspace(m, tw.id));
  }
}

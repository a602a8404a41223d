import { Injectable } from '@nestjs/common';
import { Principal } from '../common/auth/principal';
import { badRequest, invalid, notFound } from '../common/errors/domain-error';
import { ParsedBody } from '../common/jsonapi/body';
import { PageParams } from '../common/jsonapi/pagination';
import { Page } from '../common/sql/paginate';
import { OrganizationsService } from '../organizations/organizations.service';
import type { WorkspaceEntity } from '../workspaces/entities/workspace.entity';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { VariableAttributes } from './dto/variable-attributes.dto';
import { VariableEntity } from './entities/variable.entity';
import { VariableWrites } from './variable-writes';
import { VariablesRepository } from './variables.repository';
import { VariableOwnerRef, VariableView } from './variables.serializer';

/**
 * A workspace's own variables. Reading them needs read access to the workspace (the real
 * service's "read variables", which every workspace role has); writing them needs write.
 */
@Injectable()
export class WorkspaceVariablesService {
  constructor(
    private readonly repo: VariablesRepository,
    private readonly writes: VariableWrites,
    private readonly workspaces: WorkspacesService,
    private readonly organizations: OrganizationsService,
  ) {}

  async ownerRef(ws: WorkspaceEntity): Promise<VariableOwnerRef> {
    const org = await this.organizations.requireById(ws.organizationId);
    return { kind: 'workspace', workspaceId: ws.id, workspaceName: ws.name, organizationName: org.name };
  }

  async list(p: Principal, workspaceId: string, page: PageParams): Promise<Page<VariableView>> {
    const ws = await this.workspaces.requireAccess(p, workspaceId, 'read');
    return this.listOf(ws, page);
  }

  /** The legacy `GET /vars?filter[organization][name]=…&filter[workspace][name]=…`. */
  async listByName(
    p: Principal,
    orgName: string | undefined,
    workspaceName: string | undefined,
    page: PageParams,
  ): Promise<Page<VariableView>> {
    if (!orgName || !workspaceName) {
      throw badRequest(
        'filter[organization][name] and filter[workspace][name] are required',
        orgName ? 'filter[workspace][name]' : 'filter[organization][name]',
      );
    }
    const ws = await this.workspaces.requireByName(p, orgName, workspaceName);
    return this.listOf(ws, page);
  }

  private async listOf(ws: WorkspaceEntity, page: PageParams): Promise<Page<VariableView>> {
    const [owner, found] = await Promise.all([
      this.ownerRef(ws),
      this.repo.list({ workspaceId: ws.id }, page),
    ]);
    return { ...found, items: found.items.map((variable) => ({ variable, owner })) };
  }

  async show(p: Principal, workspaceId: string | undefined, id: string): Promise<VariableView> {
    const { ws, variable } = await this.find(p, workspaceId, id, 'read');
    return { variable, owner: await this.ownerRef(ws) };
  }

  async create(
    p: Principal,
    workspaceId: string,
    body: ParsedBody<VariableAttributes>,
  ): Promise<VariableView> {
    const ws = await this.workspaces.requireAccess(p, workspaceId, 'write');
    const variable = await this.writes.create({ workspaceId: ws.id }, body.attributes);
    return { variable, owner: await this.ownerRef(ws) };
  }

  /** The legacy `POST /vars`: the workspace is named by `relationships.workspace`. */
  async createLegacy(p: Principal, body: ParsedBody<VariableAttributes>): Promise<VariableView> {
    const ref = body.toOne('workspace', 'workspaces');
    if (!ref) throw invalid('Workspace relationship is required', '/data/relationships/workspace');
    return this.create(p, ref.id, body);
  }

  async update(
    p: Principal,
    workspaceId: string | undefined,
    id: string,
    body: ParsedBody<VariableAttributes>,
  ): Promise<VariableView> {
    const { ws, variable } = await this.find(p, workspaceId, id, 'write');
    const updated = await this.writes.update(variable, body.attributes);
    return { variable: updated, owner: await this.ownerRef(ws) };
  }

  async delete(p: Principal, workspaceId: string | undefined, id: string): Promise<void> {
    const { variable } = await this.find(p, workspaceId, id, 'write');
    await this.writes.delete(variable.id);
  }

  /** The workspace's own variables, whole (for the effective set). */
  ofWorkspace(workspaceId: string): Promise<VariableEntity[]> {
    return this.repo.ofWorkspace(workspaceId);
  }

  /**
   * A workspace variable and its workspace, if the caller has `level` on it; a set's variable, a
   * variable of another workspace than the path names, or one the caller may not see is a 404.
   */
  private async find(
    p: Principal,
    workspaceId: string | undefined,
    id: string,
    level: 'read' | 'write',
  ): Promise<{ ws: WorkspaceEntity; variable: VariableEntity }> {
    const variable = await this.repo.findById(id);
    if (!variable?.workspaceId || (workspaceId !== undefined && variable.workspaceId !== workspaceId)) {
      throw notFound();
    }
    const ws = await this.workspaces.requireAccess(p, variable.workspaceId, level);
    return { ws, variable };
  }
}

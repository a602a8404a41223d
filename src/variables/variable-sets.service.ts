import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Principal } from '../common/auth/principal';
import { whenDuplicate } from '../common/errors/db-errors';
import { invalid, notFound, Violations, taken } from '../common/errors/domain-error';
import { newId } from '../common/ids';
import { ParsedBody, validateAttributes } from '../common/jsonapi/body';
import { ResourceIdentifier, ResourceObject } from '../common/jsonapi/document';
import { PageParams } from '../common/jsonapi/pagination';
import { Page } from '../common/sql/paginate';
import { inTransaction } from '../common/sql/transaction';
import { OrganizationsService } from '../organizations/organizations.service';
import { ProjectsService } from '../projects/projects.service';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { VariableAttributes } from './dto/variable-attributes.dto';
import { VariableSetAttributes } from './dto/variable-set-attributes.dto';
import { VariableSetEntity } from './entities/variable-set.entity';
import { VariableEntity } from './entities/variable.entity';
import { MAX_DESCRIPTION_CHARS } from './variable-rules';
import { VariableSetsRepository } from './variable-sets.repository';
import { VariableSetView } from './variable-sets.serializer';
import { VariableWrites } from './variable-writes';
import { VariablesRepository } from './variables.repository';
import { serializeVariable } from './variables.serializer';
import { VarsetAccess } from './varset-access';

export const VARSET_INCLUDES = ['vars', 'workspaces', 'projects'] as const;
export type VarsetInclude = (typeof VARSET_INCLUDES)[number];
export type AttachmentKind = 'workspaces' | 'projects';

const MAX_NAME_CHARS = 128;
const chars = (s: string) => [...s].length;

/** Variable sets: their attributes, owners, attachments and the global-set rule. */
@Injectable()
export class VariableSetsService {
  constructor(
    private readonly repo: VariableSetsRepository,
    private readonly vars: VariablesRepository,
    private readonly writes: VariableWrites,
    private readonly access: VarsetAccess,
    private readonly organizations: OrganizationsService,
    private readonly workspaces: WorkspacesService,
    private readonly projects: ProjectsService,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  async list(
    p: Principal,
    orgName: string,
    q: string | undefined,
    page: PageParams,
  ): Promise<Page<VariableSetView>> {
    const org = await this.organizations.requireVisible(p, orgName);
    if (!(await this.access.canReadAll(p, org.id))) throw notFound();
    return this.viewsOf(await this.repo.list({ organizationId: org.id, q: q || undefined }, page));
  }

  /** Sets reaching a workspace (global, attached to it or to its project): read access to it suffices. */
  async listForWorkspace(
    p: Principal,
    workspaceId: string,
    page: PageParams,
  ): Promise<Page<VariableSetView>> {
    const ws = await this.workspaces.requireAccess(p, workspaceId, 'read');
    return this.viewsOf(await this.repo.list({ workspace: ws }, page));
  }

  async listForProject(p: Principal, projectId: string, page: PageParams): Promise<Page<VariableSetView>> {
    const project = await this.projects.requireReadable(p, projectId);
    return this.viewsOf(await this.repo.list({ project }, page));
  }

  async show(p: Principal, id: string): Promise<VariableSetView> {
    return this.viewOf(await this.access.requireReadable(p, id));
  }

  async create(
    p: Principal,
    orgName: string,
    body: ParsedBody<VariableSetAttributes>,
  ): Promise<VariableSetView> {
    const org = await this.organizations.requireVisible(p, orgName);
    const projectId = await this.parentOf(body, org);
    if (!(await this.access.canManage(p, { organizationId: org.id, projectId }))) throw notFound();
    const attrs = body.attributes;
    const now = new Date();
    const set = Object.assign(new VariableSetEntity(), {
      id: newId('varset'),
      organizationId: org.id,
      projectId,
      name: attrs.name ?? '',
      description: attrs.description ?? '',
      global: attrs.global ?? false,
      priority: attrs.priority ?? false,
      createdAt: now,
      updatedAt: now,
    });
    this.checkSet(set);
    const workspaceIds = await this.members(set, 'workspaces', body.toMany('workspaces', 'workspaces'));
    const projectIds = await this.members(set, 'projects', body.toMany('projects', 'projects'));
    const newVars = this.draftVars(set.id, body.relationships.vars);
    await this.written(async (manager) => {
      if (!(await this.organizations.lockForChildWrites(manager, org.id))) throw notFound();
      await this.checkName(manager, set);
      if (set.global) await this.checkGlobal(manager, set, newVars, '/data/attributes/global');
      await this.repo.insert(manager, set);
      await this.repo.attach(manager, set.id, 'workspaces', workspaceIds ?? []);
      await this.repo.attach(manager, set.id, 'projects', projectIds ?? []);
      await this.writes.insertAll(manager, newVars);
    });
    return this.viewOf(set);
  }

  /**
   * Changes the attributes sent; `relationships.workspaces` and `projects` replace the attachments
   * (an empty array clears them), `relationships.vars` adds variables. The owner cannot change.
   */
  async update(p: Principal, id: string, body: ParsedBody<VariableSetAttributes>): Promise<VariableSetView> {
    const stored = await this.access.requireManageable(p, id);
    const org = await this.organizations.requireById(stored.organizationId);
    if (body.hasRelationship('parent') && (await this.parentOf(body, org)) !== stored.projectId) {
      throw invalid('Parent cannot be changed', '/data/relationships/parent');
    }
    const attrs = body.attributes;
    const set = Object.assign(new VariableSetEntity(), stored, {
      name: attrs.name ?? stored.name,
      description: attrs.description ?? stored.description,
      global: attrs.global ?? stored.global,
      priority: attrs.priority ?? stored.priority,
      updatedAt: new Date(Math.max(Date.now(), stored.updatedAt.getTime() + 1)),
    });
    this.checkSet(set);
    const workspaceIds = await this.members(set, 'workspaces', body.toMany('workspaces', 'workspaces'));
    const projectIds = await this.members(set, 'projects', body.toMany('projects', 'projects'));
    const newVars = this.draftVars(set.id, body.relationships.vars);
    await this.written(async (manager) => {
      if (!(await this.organizations.lockForChildWrites(manager, set.organizationId))) throw notFound();
      if (set.name !== stored.name) await this.checkName(manager, set);
      if (set.global) {
        const held = await this.vars.ofVarsets([set.id], manager);
        await this.checkGlobal(manager, set, [...held, ...newVars], '/data/attributes/global');
      }
      await this.repo.update(manager, set);
      // A global set reaches every workspace: attachments would mean nothing.
      if (set.global && !stored.global) {
        await this.repo.detach(manager, set.id, 'workspaces');
        await this.repo.detach(manager, set.id, 'projects');
      }
      for (const [kind, ids] of [
        ['workspaces', workspaceIds],
        ['projects', projectIds],
      ] as const) {
        if (!ids) continue;
        await this.repo.detach(manager, set.id, kind);
        await this.repo.attach(manager, set.id, kind, ids);
      }
      await this.writes.insertAll(manager, newVars);
    });
    return this.viewOf(set);
  }

  async delete(p: Principal, id: string): Promise<void> {
    const set = await this.access.requireManageable(p, id);
    await inTransaction(this.ds, (manager) => this.repo.delete(manager, set.id));
  }

  /** `POST` (add) or `DELETE` (remove) on `/varsets/:id/relationships/workspaces|projects`. */
  async changeAttachments(
    p: Principal,
    id: string,
    kind: AttachmentKind,
    change: 'add' | 'remove',
    refs: ResourceIdentifier[],
  ): Promise<void> {
    const set = await this.access.requireManageable(p, id);
    if (set.global) {
      throw invalid(
        `A global variable set applies to every workspace: it cannot be applied to ${kind}`,
        '/data',
      );
    }
    const ids = change === 'add' ? await this.members(set, kind, refs) : refs.map((r) => r.id);
    await this.written(async (manager) => {
      if (!(await this.repo.lock(manager, set.id))) throw notFound();
      if (change === 'add') await this.repo.attach(manager, set.id, kind, ids ?? []);
      else await this.repo.detach(manager, set.id, kind, ids ?? []);
    });
  }

  /** The requested resources related to these sets, each only if the caller may read it. */
  async included(
    p: Principal,
    views: readonly VariableSetView[],
    includes: readonly VarsetInclude[],
  ): Promise<ResourceObject[]> {
    const out: ResourceObject[] = [];
    if (includes.includes('vars')) {
      const vars = await this.vars.ofVarsets(views.map((v) => v.set.id));
      out.push(
        ...vars.map((variable) =>
          serializeVariable({ variable, owner: { kind: 'varset', varsetId: variable.varsetId! } }),
        ),
      );
    }
    if (includes.includes('workspaces')) {
      out.push(
        ...(await this.workspaces.readableResources(
          p,
          views.flatMap((v) => v.attachments.workspaceIds),
        )),
      );
    }
    if (includes.includes('projects')) {
      out.push(
        ...(await this.projects.readableResources(
          p,
          views.flatMap((v) => v.attachments.projectIds),
        )),
      );
    }
    return out;
  }

  async viewOf(set: VariableSetEntity): Promise<VariableSetView> {
    const page = await this.viewsOf({ items: [set], totalCount: 1, number: 1, size: 1 });
    return page.items[0];
  }

  private async viewsOf(page: Page<VariableSetEntity>): Promise<Page<VariableSetView>> {
    const ids = page.items.map((s) => s.id);
    const [orgs, attachments, varIds] = await Promise.all([
      this.organizations.findByIds([...new Set(page.items.map((s) => s.organizationId))]),
      this.repo.attachments(ids),
      this.vars.idsByVarset(ids),
    ]);
    const names = new Map(orgs.map((o) => [o.id, o.name]));
    return {
      ...page,
      items: page.items.map((set) => ({
        set,
        organizationName: names.get(set.organizationId) ?? '',
        attachments: attachments.get(set.id) ?? { workspaceIds: [], projectIds: [] },
        varIds: varIds.get(set.id) ?? [],
      })),
    };
  }

  /** The owning project named by `relationships.parent`, null for the organization. */
  private async parentOf(
    body: ParsedBody<VariableSetAttributes>,
    org: { id: string; name: string },
  ): Promise<string | null> {
    const pointer = '/data/relationships/parent/data';
    const rel = body.relationships.parent as { data?: { type?: unknown; id?: unknown } | null } | undefined;
    const data = rel?.data;
    if (!data) return null;
    if (data.type === 'organizations') {
      if (data.id !== org.name) throw invalid('Parent must be the organization of the variable set', pointer);
      return null;
    }
    if (data.type !== 'projects' || typeof data.id !== 'string') {
      throw invalid('Parent must be an organization or a project', pointer);
    }
    const project = await this.projects.requireById(data.id).catch(() => null);
    if (!project || project.organizationId !== org.id) throw notFound();
    return project.id;
  }

  private checkSet(set: VariableSetEntity): void {
    const v = new Violations();
    if (!set.name) v.attribute('name', "can't be blank");
    else if (chars(set.name) > MAX_NAME_CHARS)
      v.attribute('name', `is too long (maximum is ${MAX_NAME_CHARS} characters)`);
    if (chars(set.description) > MAX_DESCRIPTION_CHARS) {
      v.attribute('description', `is too long (maximum is ${MAX_DESCRIPTION_CHARS} characters)`);
    }
    if (set.global && set.projectId)
      v.attribute('global', 'must be false for a variable set owned by a project');
    v.throwIfAny();
  }

  /**
   * The ids of workspaces or projects to attach, each in the set's organization (404 otherwise);
   * a project's set reaches only that project and its workspaces (422 otherwise).
   */
  private async members(
    set: VariableSetEntity,
    kind: AttachmentKind,
    refs: ResourceIdentifier[] | undefined,
  ): Promise<string[] | undefined> {
    if (!refs) return undefined;
    if (refs.length && set.global) {
      throw invalid(
        `A global variable set applies to every workspace: it cannot be applied to ${kind}`,
        `/data/relationships/${kind}`,
      );
    }
    const ids = refs.map((r) => r.id);
    const found =
      kind === 'workspaces' ? await this.workspaces.findByIds(ids) : await this.projects.findByIds(ids);
    if (found.length !== ids.length || found.some((x) => x.organizationId !== set.organizationId))
      throw notFound();
    if (set.projectId) {
      const outside = found.some((x) =>
        'projectId' in x ? x.projectId !== set.projectId : x.id !== set.projectId,
      );
      if (outside) {
        throw invalid(
          `A variable set owned by a project applies only to that project and its workspaces`,
          `/data/relationships/${kind}`,
        );
      }
    }
    return ids;
  }

  /** `relationships.vars` of a create or update: full variable definitions, drafted (and checked). */
  private draftVars(varsetId: string, rel: unknown): VariableEntity[] {
    if (rel === undefined) return [];
    const data = typeof rel === 'object' && rel !== null ? (rel as Record<string, unknown>).data : undefined;
    if (!Array.isArray(data))
      throw invalid('Relationship data must be an array of variables', '/data/relationships/vars/data');
    const drafted = data.map((item) => {
      const attributes = (item as { attributes?: unknown } | null)?.attributes;
      const plain =
        typeof attributes === 'object' && attributes !== null ? (attributes as Record<string, unknown>) : {};
      return this.writes.draftNew({ varsetId }, validateAttributes(VariableAttributes, plain));
    });
    const seen = new Set<string>();
    for (const v of drafted) {
      const id = `${v.category}\u0000${v.key}`;
      if (seen.has(id)) throw taken('key');
      seen.add(id);
    }
    return drafted;
  }

  /** Names are unique in an organization ignoring case, on every database (MySQL's collation would, SQLite's not). */
  private async checkName(manager: EntityManager, set: VariableSetEntity): Promise<void> {
    if (await this.repo.nameTaken(manager, set.organizationId, set.name, set.id)) {
      throw taken('name');
    }
  }

  /** A global set may not share a category and key with another global set of its organization. */
  async checkGlobal(
    manager: EntityManager,
    set: { id: string; organizationId: string },
    variables: readonly { key: string; category: string }[],
    pointer: string,
  ): Promise<void> {
    if (!variables.length) return;
    const taken = await this.repo.globalKeys(manager, set.organizationId);
    const v = new Violations();
    for (const variable of variables) {
      const clash = taken.find(
        (t) => t.varsetId !== set.id && t.key === variable.key && t.category === variable.category,
      );
      if (clash) {
        v.add(
          `Variable ${variable.key} (${variable.category}) conflicts with a variable of the global variable set ${clash.name}`,
          pointer,
        );
      }
    }
    v.throwIfAny();
  }

  private async written(work: (manager: EntityManager) => Promise<void>): Promise<void> {
    await whenDuplicate(
      () => inTransaction(this.ds, work),
      // The set's name index: a variable's key the set already holds is refused by insertAll.
      () => taken('name'),
      () => notFound(),
    );
  }
}

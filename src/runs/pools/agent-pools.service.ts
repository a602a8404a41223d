import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PermissionService } from '../../common/auth/permission.service';
import { Principal } from '../../common/auth/principal';
import { Page } from '../../common/sql/paginate';
import { inTransaction, lockRow } from '../../common/sql/transaction';
import { whenDuplicate } from '../../common/errors/db-errors';
import { invalid, notFound, taken } from '../../common/errors/domain-error';
import { ParsedBody } from '../../common/jsonapi/body';
import { ResourceObject } from '../../common/jsonapi/document';
import { PageParams } from '../../common/jsonapi/pagination';
import { newId } from '../../common/ids';
import type { OrganizationEntity } from '../../organizations/entities/organization.entity';
import { OrganizationsService } from '../../organizations/organizations.service';
import { AgentPoolCheckRegistry, AgentPoolUsability } from '../../workspaces/agent-pool-check.registry';
import { WorkspacesService } from '../../workspaces/workspaces.service';
import { AgentPoolsRepository, PoolListQuery } from './agent-pools.repository';
import { AgentsRepository } from './agents.repository';
import { CreateAgentPoolAttributes, UpdateAgentPoolAttributes } from './dto/agent-pool-attributes.dto';
import { AgentPoolEntity } from './entities/agent-pool.entity';

/** A pool as shown: its organization's name, the workspaces around it and its live agent count. */
export interface AgentPoolView {
  pool: AgentPoolEntity;
  organizationName: string;
  allowedWorkspaceIds: string[];
  workspaceIds: string[];
  agentCount: number;
}

export interface PoolList extends Page<AgentPoolView> {
  /** Pools in the organization, whatever the filters. */
  organizationTotal: number;
}

const ALLOWED_WORKSPACES = '/data/relationships/allowed-workspaces';

/** Rolls a pool update back when it would stop allowing workspaces that use the pool. */
class WorkspacesCutOff extends Error {
  constructor(readonly workspaceIds: string[]) {
    super('agent pool update would cut workspaces off');
  }
}

/**
 * Who may do what: organization owners manage pools, their tokens and agents (as on the real
 * service); members whose teams manage workspaces may read pools and agents, since they choose
 * a pool for a workspace. Everyone else gets a 404.
 */
@Injectable()
export class AgentPoolsService implements OnModuleInit {
  constructor(
    private readonly repo: AgentPoolsRepository,
    private readonly agents: AgentsRepository,
    private readonly permissions: PermissionService,
    private readonly organizations: OrganizationsService,
    private readonly workspaces: WorkspacesService,
    private readonly poolChecks: AgentPoolCheckRegistry,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  onModuleInit(): void {
    this.poolChecks.register((manager, poolId, workspace) => this.usability(manager, poolId, workspace));
  }

  async requireReadable(p: Principal, id: string): Promise<AgentPoolEntity> {
    const pool = await this.repo.findById(id);
    if (!pool) throw notFound();
    await this.permissions.requireFlag(p, pool.organizationId, 'manage-workspaces');
    return pool;
  }

  async requireManageable(p: Principal, id: string): Promise<AgentPoolEntity> {
    const pool = await this.repo.findById(id);
    if (!pool) throw notFound();
    await this.permissions.requireOwner(p, pool.organizationId);
    return pool;
  }

  /** The organization of a pool list or create, once the caller may read (or manage) its pools. */
  private async organizationFor(p: Principal, orgName: string, manage: boolean): Promise<OrganizationEntity> {
    const org = await this.organizations.requireVisible(p, orgName);
    if (manage) await this.permissions.requireOwner(p, org.id);
    else await this.permissions.requireFlag(p, org.id, 'manage-workspaces');
    return org;
  }

  async list(
    p: Principal,
    orgName: string,
    query: Omit<PoolListQuery, 'usableBy'> & { allowedWorkspaceName?: string },
    page: PageParams,
  ): Promise<PoolList> {
    const org = await this.organizationFor(p, orgName, false);
    let usableBy: string | null | undefined;
    if (query.allowedWorkspaceName !== undefined) {
      usableBy = (await this.workspaces.findByName(org.id, query.allowedWorkspaceName))?.id ?? null;
    }
    const [found, organizationTotal] = await Promise.all([
      this.repo.list(org.id, { q: query.q, usableBy }, page),
      this.repo.countInOrganization(org.id),
    ]);
    return { ...found, items: await this.views(found.items, org.name), organizationTotal };
  }

  async show(p: Principal, id: string): Promise<AgentPoolView> {
    return this.view(await this.requireReadable(p, id));
  }

  async create(
    p: Principal,
    orgName: string,
    body: ParsedBody<CreateAgentPoolAttributes>,
  ): Promise<AgentPoolView> {
    const org = await this.organizationFor(p, orgName, true);
    const allowed = await this.allowedWorkspaces(body, org.id);
    const now = new Date();
    const pool = Object.assign(new AgentPoolEntity(), {
      id: newId('apool'),
      organizationId: org.id,
      name: body.attributes.name,
      organizationScoped: body.attributes['organization-scoped'] ?? true,
      createdAt: now,
      updatedAt: now,
    });
    // A new pool has no row to lock and no workspace using it yet: inserting it is all there is.
    await whenDuplicate(
      () => inTransaction(this.ds, (manager) => this.repo.insert(manager, pool, allowed ?? [])),
      () => taken('name'),
    );
    return this.view(pool, org.name);
  }

  async update(
    p: Principal,
    id: string,
    body: ParsedBody<UpdateAgentPoolAttributes>,
  ): Promise<AgentPoolView> {
    const pool = await this.requireManageable(p, id);
    const allowed = await this.allowedWorkspaces(body, pool.organizationId);
    const attrs = body.attributes;
    if (attrs.name !== undefined) pool.name = attrs.name;
    if (attrs['organization-scoped'] !== undefined) pool.organizationScoped = attrs['organization-scoped'];
    pool.updatedAt = new Date();
    await this.saveUnique(pool, allowed);
    return this.view(pool);
  }

  /**
   * A pool that workspaces still send their jobs to cannot go: they would be left with no
   * executors. The foreign key from workspaces backs the check up against a concurrent assignment.
   */
  async delete(p: Principal, id: string): Promise<void> {
    const pool = await this.requireManageable(p, id);
    const using = await inTransaction(this.ds, async (manager) => {
      if (!(await lockRow(manager, AgentPoolEntity, pool.id))) throw notFound();
      const ids = (await this.workspaces.idsByAgentPool([pool.id], manager)).get(pool.id) ?? [];
      if (!ids.length) await this.repo.delete(manager, pool.id);
      return ids;
    });
    if (using.length) throw await this.inUse(using, 'Agent pool is still used by');
  }

  /** Included workspaces the caller may read. */
  async includedWorkspaces(p: Principal, views: readonly AgentPoolView[]): Promise<ResourceObject[]> {
    const ids = new Set(views.flatMap((v) => [...v.workspaceIds, ...v.allowedWorkspaceIds]));
    return ids.size ? this.workspaces.readableResources(p, [...ids]) : [];
  }

  /**
   * Whether a workspace may send its jobs to the pool: same organization, and organization-scoped
   * or allowing the workspace. Takes the pool's row lock, so a concurrent update of the pool's
   * scope waits for the workspace's change (and then sees it).
   */
  async usability(
    manager: EntityManager,
    poolId: string,
    workspace: { id: string; organizationId: string },
  ): Promise<AgentPoolUsability> {
    if (!(await lockRow(manager, AgentPoolEntity, poolId))) return 'missing';
    const pool = await manager.getRepository(AgentPoolEntity).findOne({ where: { id: poolId } });
    if (!pool || pool.organizationId !== workspace.organizationId) return 'missing';
    if (pool.organizationScoped || (await this.repo.allows(manager, pool.id, workspace.id))) return 'usable';
    return 'not-allowed';
  }

  private async view(pool: AgentPoolEntity, organizationName?: string): Promise<AgentPoolView> {
    const name = organizationName ?? (await this.organizations.requireById(pool.organizationId)).name;
    return (await this.views([pool], name))[0];
  }

  /** Views of pools of one organization: one query each for allowed, using and agent counts. */
  private async views(pools: AgentPoolEntity[], organizationName: string): Promise<AgentPoolView[]> {
    const ids = pools.map((pool) => pool.id);
    const [allowed, using, counts] = await Promise.all([
      this.repo.allowedWorkspaceIds(ids),
      this.workspaces.idsByAgentPool(ids),
      this.agents.activeCounts(ids),
    ]);
    return pools.map((pool) => ({
      pool,
      organizationName,
      allowedWorkspaceIds: allowed.get(pool.id) ?? [],
      workspaceIds: using.get(pool.id) ?? [],
      agentCount: counts.get(pool.id) ?? 0,
    }));
  }

  /**
   * The `allowed-workspaces` relationship: workspaces of the pool's organization. Projects and
   * exclusions (which go-tfe can send) are not supported; sent empty, they are accepted.
   */
  private async allowedWorkspaces(
    body: ParsedBody<object>,
    organizationId: string,
  ): Promise<string[] | undefined> {
    for (const [name, type] of [
      ['allowed-projects', 'projects'],
      ['excluded-workspaces', 'workspaces'],
    ] as const) {
      if (body.toMany(name, type)?.length) {
        throw invalid(`${name} is not supported; use allowed-workspaces`, `/data/relationships/${name}`);
      }
    }
    const refs = body.toMany('allowed-workspaces', 'workspaces');
    if (!refs) return undefined;
    const found = new Map((await this.workspaces.findByIds(refs.map((r) => r.id))).map((w) => [w.id, w]));
    refs.forEach((ref, i) => {
      if (found.get(ref.id)?.organizationId !== organizationId) {
        throw invalid('Workspace not found', `${ALLOWED_WORKSPACES}/data/${i}/id`);
      }
    });
    return refs.map((r) => r.id);
  }

  /**
   * Saves a changed pool and, when given, its allowed workspaces. A pool that stops allowing a workspace
   * which uses it is refused: the workspace's jobs would have nowhere to go.
   */
  private async saveUnique(pool: AgentPoolEntity, allowed: string[] | undefined): Promise<void> {
    let cut: string[];
    try {
      cut = await whenDuplicate(
        () =>
          inTransaction(this.ds, async (manager) => {
            await lockRow(manager, AgentPoolEntity, pool.id);
            await this.repo.save(manager, pool);
            if (allowed) await this.repo.replaceAllowedWorkspaces(manager, pool.id, allowed);
            if (pool.organizationScoped) return [];
            const using = (await this.workspaces.idsByAgentPool([pool.id], manager)).get(pool.id) ?? [];
            const stillAllowed = new Set(
              (await this.repo.allowedWorkspaceIds([pool.id], manager)).get(pool.id),
            );
            const dropped = using.filter((id) => !stillAllowed.has(id));
            // Nothing is kept when a workspace would be cut off: the transaction rolls back.
            if (dropped.length) throw new WorkspacesCutOff(dropped);
            return [];
          }),
        () => taken('name'),
      );
    } catch (err) {
      if (!(err instanceof WorkspacesCutOff)) throw err;
      cut = err.workspaceIds;
    }
    // Named after the transaction: reading workspaces inside it would take a second connection.
    if (cut.length) throw await this.inUse(cut, 'Agent pool would no longer allow', ALLOWED_WORKSPACES);
  }

  private async inUse(workspaceIds: string[], lead: string, pointer?: string) {
    const names = (await this.workspaces.findByIds(workspaceIds)).map((w) => w.name).sort();
    const noun = names.length === 1 ? 'workspace' : 'workspaces';
    return invalid(
      `${lead} ${names.length} ${noun} (${names.join(', ')}); move them to another pool first`,
      pointer,
    );
  }
}

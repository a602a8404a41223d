import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PermissionService } from '../common/auth/permission.service';
import { Principal } from '../common/auth/principal';
import { Page } from '../common/sql/paginate';
import { inTransaction } from '../common/sql/transaction';
import { whenDuplicate } from '../common/errors/db-errors';
import { invalid, notFound, Violations } from '../common/errors/domain-error';
import { ParsedBody } from '../common/jsonapi/body';
import { ResourceObject } from '../common/jsonapi/document';
import { PageParams } from '../common/jsonapi/pagination';
import { newId } from '../common/ids';
import { OrganizationsService } from '../organizations/organizations.service';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { RunTriggerAttributes } from './dto/run-trigger-attributes.dto';
import { RunTriggerEntity } from './entities/run-trigger.entity';
import { OutboundTriggersCache, TriggerDestination } from './outbound-triggers.cache';
import { RunTriggersRepository, RunTriggerView, TriggerDirection } from './run-triggers.repository';
import { describeCycle, MAX_SOURCES_PER_WORKSPACE, RuleFailure, ruleFailures } from './run-triggers.rules';

export const RUN_TRIGGER_INCLUDES = ['workspace', 'sourceable'] as const;
export type RunTriggerInclude = (typeof RUN_TRIGGER_INCLUDES)[number];

const SOURCEABLE = '/data/relationships/sourceable';

@Injectable()
export class RunTriggersService {
  constructor(
    private readonly repo: RunTriggersRepository,
    private readonly permissions: PermissionService,
    private readonly workspaces: WorkspacesService,
    private readonly organizations: OrganizationsService,
    private readonly outbound: OutboundTriggersCache,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  /** Needs admin on the destination and read on the source; either unknown or hidden is a 404. */
  async create(
    p: Principal,
    workspaceId: string,
    body: ParsedBody<RunTriggerAttributes>,
  ): Promise<RunTriggerView> {
    const workspace = await this.workspaces.requireAccess(p, workspaceId, 'admin');
    const ref = body.toOne('sourceable', 'workspaces');
    if (!ref) throw invalid('Sourceable relationship is required', SOURCEABLE);
    const sourceable = await this.workspaces.requireAccess(p, ref.id, 'read');
    if (sourceable.organizationId !== workspace.organizationId) {
      throw invalid('Sourceable workspace must belong to the same organization as the workspace', SOURCEABLE);
    }
    if (sourceable.id === workspace.id)
      throw invalid('A workspace cannot trigger runs in itself', SOURCEABLE);
    const trigger = Object.assign(new RunTriggerEntity(), {
      id: newId('rt'),
      workspaceId: workspace.id,
      sourceableId: sourceable.id,
    });
    const failures = await this.insertChecked(trigger, workspace.organizationId);
    if (failures.length) await this.refuse(p, failures);
    return { trigger, workspace, sourceable };
  }

  async list(
    p: Principal,
    workspaceId: string,
    direction: TriggerDirection,
    page: PageParams,
  ): Promise<Page<RunTriggerView>> {
    const read = await this.repo.listViewsOf(workspaceId, direction, page);
    if (read) {
      await this.permissions.requireWorkspaceLevel(p, read.workspace, 'read');
      return read.page;
    }
    const ws = await this.workspaces.requireAccess(p, workspaceId, 'read');
    return this.repo.listViews(ws.id, direction, page);
  }

  /** Readable by whoever may read runs of either end. */
  async show(p: Principal, id: string): Promise<RunTriggerView> {
    const view = await this.repo.findView(id);
    if (!view) throw notFound();
    const [destination, source] = await Promise.all([
      this.permissions.hasWorkspaceLevel(p, view.workspace, 'read'),
      this.permissions.hasWorkspaceLevel(p, view.sourceable, 'read'),
    ]);
    if (!destination && !source) throw notFound();
    return view;
  }

  async delete(p: Principal, id: string): Promise<void> {
    const view = await this.repo.findView(id);
    if (!view) throw notFound();
    await this.permissions.requireWorkspaceLevel(p, view.workspace, 'admin');
    await this.repo.delete(id);
  }

  /**
   * Where a finished run of `sourceWorkspaceId` queues runs: one entry per outbound trigger, read
   * in the caller's transaction (the runs module fires them when a run is applied), or remembered
   * (OutboundTriggersCache) while no trigger changed since the request arrived.
   */
  async destinationsOf(
    manager: EntityManager,
    sourceWorkspaceId: string,
  ): Promise<TriggerDestination[]> {
    return this.outbound.of(sourceWorkspaceId, async () => {
      const triggers = await this.repo.outbound(manager, sourceWorkspaceId);
      return triggers.map((t) => ({ triggerId: t.id, workspaceId: t.workspaceId }));
    });
  }

  /** The requested workspaces of these triggers that the caller may read (read with the triggers). */
  async included(
    p: Principal,
    views: readonly RunTriggerView[],
    includes: readonly RunTriggerInclude[],
  ): Promise<ResourceObject[]> {
    const byId = new Map(views.flatMap((v) => includes.map((name) => [v[name].id, v[name]] as const)));
    return byId.size ? this.workspaces.readableResourcesOf(p, [...byId.values()]) : [];
  }

  /**
   * Checks the organization's triggers and inserts in one transaction holding the organization's
   * row lock, so concurrent creates cannot pass the limit or close a cycle between them.
   */
  private async insertChecked(trigger: RunTriggerEntity, organizationId: string): Promise<RuleFailure[]> {
    return whenDuplicate(
      () =>
        inTransaction(this.ds, async (manager) => {
          if (!(await this.organizations.lockForChildWrites(manager, organizationId))) throw notFound();
          const failures = ruleFailures(
            await this.repo.edgesInOrganization(manager, organizationId),
            trigger,
          );
          if (failures.length) return failures;
          trigger.createdAt = new Date();
          await this.repo.insert(manager, trigger);
          return [];
        }),
      (): RuleFailure[] => [{ rule: 'duplicate' }],
      // A workspace deleted since it was read.
      () => notFound(),
    );
  }

  /**
   * Throws one 422 item per broken rule; a cycle is spelled out with the names of the workspaces
   * the caller may read (the others would leak through the message otherwise).
   */
  private async refuse(p: Principal, failures: RuleFailure[]): Promise<void> {
    const onCycle = await this.workspaces.findByIds(
      failures.flatMap((f) => (f.rule === 'cycle' ? f.path : [])),
    );
    const levels = await this.permissions.workspaceLevels(p, onCycle);
    const readable = new Map(onCycle.filter((w) => levels.get(w.id)).map((w) => [w.id, w.name]));
    const detail = (failure: RuleFailure): string => {
      switch (failure.rule) {
        case 'duplicate':
          return 'Sourceable workspace already triggers runs in this workspace';
        case 'limit':
          return `A workspace can have at most ${MAX_SOURCES_PER_WORKSPACE} source workspaces`;
        case 'cycle':
          return `Run trigger would create a cycle: ${describeCycle(failure.path, readable)}`;
      }
    };
    const violations = new Violations();
    for (const f of failures)
      violations.add(detail(f), SOURCEABLE, f.rule === 'duplicate' ? 'RUN_TRIGGER_TAKEN' : undefined);
    violations.throwIfAny();
  }
}

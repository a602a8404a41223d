import { Injectable } from '@nestjs/common';
import { PermissionService } from '../common/auth/permission.service';
import { Principal } from '../common/auth/principal';
import { Clock } from '../common/clock';
import { Included, ResourceObject } from '../common/jsonapi/document';
import { UsersService } from '../users/users.service';
import { serializeUser } from '../users/users.serializer';
import { EffectiveVariablesService } from '../variables/effective-variables.service';
import { WorkspacesService } from '../workspaces/workspaces.service';
import type { WorkspaceEntity } from '../workspaces/entities/workspace.entity';
import { ConfigurationVersionsService } from './configuration-versions.service';
import { serializeConfigurationVersion } from './configuration-versions.serializer';
import { RunPhaseEntity } from './entities/run-phase.entity';
import { RunEntity } from './entities/run.entity';
import { PolicyGateRegistry } from './policy-gate.registry';
import { RunLinks } from './run-links';
import { logReadResource, RunLogsService } from './run-logs.service';
import { RunsRepository } from './runs.repository';
import { serializePhase, serializeRun } from './runs.serializer';

/** `include` values of run routes; both spellings the real service's clients use. */
export const RUN_INCLUDES = [
  'workspace',
  'configuration-version',
  'configuration_version',
  'created-by',
  'created_by',
  'plan',
  'apply',
  // Runs have neither (see runs.serializer): asked for, they add nothing.
  'task-stages',
  'cost-estimate',
] as const;

/** Loads what the run, plan and apply wire shapes need, a whole page at a time. */
/** Runs this request created, all in one workspace: what their answer need not read again. */
export interface CreatedRuns {
  workspace: WorkspaceEntity;
  withVariables: boolean;
}

@Injectable()
export class RunsPresenter {
  constructor(
    private readonly repo: RunsRepository,
    private readonly cvs: ConfigurationVersionsService,
    private readonly workspaces: WorkspacesService,
    private readonly users: UsersService,
    private readonly permissions: PermissionService,
    private readonly links: RunLinks,
    private readonly logs: RunLogsService,
    private readonly gates: PolicyGateRegistry,
    private readonly variables: EffectiveVariablesService,
    private readonly clock: Clock,
  ) {}

  /**
   * Run resources with the caller's permissions, their variables (sensitive values masked) and, for
   * applied runs, what their triggers did. `created`: the runs were created by this request in
   * `workspace` (as its permission check read it), so they have no policy check yet, and variables
   * only if their creation gave some (`withVariables`).
   */
  async resources(p: Principal, runs: RunEntity[], created?: CreatedRuns): Promise<ResourceObject[]> {
    const workspaces = created
      ? [created.workspace]
      : await this.workspaces.findByIds(runs.map((r) => r.workspaceId));
    const gate = this.gates.get();
    const workspaceById = new Map(workspaces.map((w) => [w.id, w]));
    const withVariables = created ? (created.withVariables ? runs : []) : runs;
    const [levels, outcomes, checkIds, variables] = await Promise.all([
      this.permissions.workspaceLevels(p, workspaces),
      this.repo.outcomesOf(runs.filter((r) => r.status === 'applied').map((r) => r.id)),
      gate && !created ? gate.checkIdsOf(runs.map((r) => r.id)) : new Map<string, string[]>(),
      this.variables.shownRunVariables(
        withVariables.flatMap((r) => {
          const workspace = workspaceById.get(r.workspaceId);
          return workspace ? [{ id: r.id, workspace }] : [];
        }),
      ),
    ]);
    // `can-override-policy-check`: the organization flag, for callers who can read the run at all.
    const overriders = new Map<string, boolean>();
    for (const orgId of new Set(workspaces.map((w) => w.organizationId))) {
      overriders.set(orgId, await this.permissions.hasFlag(p, orgId, 'manage-policy-overrides'));
    }
    const orgOf = new Map(workspaces.map((w) => [w.id, w.organizationId]));
    const now = this.clock.now();
    return runs.map((run) =>
      serializeRun(
        run,
        levels.get(run.workspaceId) ?? null,
        now,
        outcomes.filter((o) => o.sourceRunId === run.id),
        overriders.get(orgOf.get(run.workspaceId) ?? '') === true,
        checkIds.get(run.id) ?? [],
        variables.get(run.id) ?? [],
      ),
    );
  }

  async resource(p: Principal, run: RunEntity, created?: CreatedRuns): Promise<ResourceObject> {
    const [resource] = await this.resources(p, [run], created);
    return resource;
  }

  /** Plans and applies, each with a `log-read-url` from where its log's cut, if any, left it. */
  async phaseResources(phases: RunPhaseEntity[], origin: string): Promise<ResourceObject[]> {
    const bases = await this.logs.bases(phases.map((p) => p.id));
    return phases.map((phase) =>
      serializePhase(phase, this.links.logRead(origin, logReadResource(phase.id, bases.get(phase.id) ?? 0))),
    );
  }

  /** The `included` array of run reads, each type read once for the whole page. */
  async included(
    p: Principal,
    runs: RunEntity[],
    includes: readonly string[],
    origin: string,
  ): Promise<ResourceObject[] | undefined> {
    if (!includes.length) return undefined;
    const wants = (...names: string[]) => names.some((n) => includes.includes(n));
    const pick = (f: (r: RunEntity) => string | null) =>
      runs.map(f).filter((id): id is string => id !== null);
    const phaseIds = [
      ...(wants('plan') ? pick((r) => r.planId) : []),
      ...(wants('apply') ? pick((r) => r.applyId) : []),
    ];
    const [workspaces, cvs, users, phases] = await Promise.all([
      wants('workspace')
        ? this.workspaces.readableResources(
            p,
            pick((r) => r.workspaceId),
          )
        : [],
      wants('configuration-version', 'configuration_version')
        ? this.cvs.readable(
            p,
            pick((r) => r.configurationVersionId),
          )
        : [],
      wants('created-by', 'created_by') ? this.users.findByIds(pick((r) => r.createdById)) : [],
      this.repo.findPhases(phaseIds),
    ]);
    return new Included()
      .add(...workspaces)
      .add(...cvs.map((cv) => serializeConfigurationVersion(cv)))
      .add(...users.map((u) => serializeUser(u, false)))
      .add(...(await this.phaseResources(phases, origin)))
      .toArray();
  }
}

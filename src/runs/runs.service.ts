import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PermissionService } from '../common/auth/permission.service';
import { Principal, principalResource } from '../common/auth/principal';
import { Clock } from '../common/clock';
import { Page } from '../common/sql/paginate';
import { inTransaction } from '../common/sql/transaction';
import { conflict, DomainError, invalid, notFound } from '../common/errors/domain-error';
import { ParsedBody } from '../common/jsonapi/body';
import { PageParams } from '../common/jsonapi/pagination';
import { checkRunVariables } from '../variables/run-variable-rules';
import { RunVariablesService } from '../variables/run-variables.service';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { WorkspaceLockHolder, WorkspaceLocks } from '../workspaces/workspace-locks.service';
import type { WorkspaceEntity } from '../workspaces/entities/workspace.entity';
import { ConfigurationVersionsRepository } from './configuration-versions.repository';
import { CreateRunAttributes } from './dto/run-attributes.dto';
import { RunJobEntity } from './entities/run-job.entity';
import { RunPhaseEntity } from './entities/run-phase.entity';
import { RunEntity } from './entities/run.entity';
import { RunJobsRepository } from './protocol/run-jobs.repository';
import { addressProblems, DEFAULT_RUN_OPTIONS, optionProblems, RunOptions } from './run-options';
import { RunQueueService } from './run-queue.service';
import {
  ACTION_LEVEL,
  availableActions,
  cancelEffect,
  FORCE_CANCEL_COOL_OFF_MS,
  RunAction,
  refusal,
  REFUSAL_CODES,
  RunStatus,
} from './run-rules';
import { RunsRepository } from './runs.repository';

/** The default message of runs queued through `POST /runs`, as the real service words it. */
export const MANUAL_MESSAGE = 'Queued manually via the Terraform Enterprise API';

const CV_POINTER = '/data/relationships/configuration-version';

@Injectable()
export class RunsService {
  constructor(
    private readonly repo: RunsRepository,
    private readonly cvs: ConfigurationVersionsRepository,
    private readonly jobs: RunJobsRepository,
    private readonly queue: RunQueueService,
    private readonly workspaces: WorkspacesService,
    private readonly workspaceLocks: WorkspaceLocks,
    private readonly permissions: PermissionService,
    private readonly clock: Clock,
    private readonly runVariables: RunVariablesService,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  /** Needs `plan` on the workspace; 404 for a workspace the caller cannot see or queue in. */
  /** The run created, and its workspace as the permission check read it (for the answer). */
  async create(
    p: Principal,
    body: ParsedBody<CreateRunAttributes>,
  ): Promise<{ run: RunEntity; workspace: WorkspaceEntity }> {
    const wsRef = body.toOne('workspace', 'workspaces');
    if (!wsRef) throw invalid('Workspace relationship is required', '/data/relationships/workspace');
    const ws = await this.workspaces.requireAccess(p, wsRef.id, ACTION_LEVEL.queue);
    const cvRef = body.toOne('configuration-version', 'configuration-versions');
    const attrs = body.attributes;
    const variables = checkRunVariables(attrs.variables);
    const addressIssues = [
      ...addressProblems('target-addrs', attrs['target-addrs'] ?? []),
      ...addressProblems('replace-addrs', attrs['replace-addrs'] ?? []),
    ];
    if (addressIssues.length) throw new DomainError('invalid', addressIssues);
    const options: RunOptions = {
      isDestroy: attrs['is-destroy'] ?? DEFAULT_RUN_OPTIONS.isDestroy,
      refresh: attrs.refresh ?? DEFAULT_RUN_OPTIONS.refresh,
      refreshOnly: attrs['refresh-only'] ?? DEFAULT_RUN_OPTIONS.refreshOnly,
      targetAddrs: (attrs['target-addrs'] as string[] | undefined) ?? [],
      replaceAddrs: (attrs['replace-addrs'] as string[] | undefined) ?? [],
      allowEmptyApply: attrs['allow-empty-apply'] ?? DEFAULT_RUN_OPTIONS.allowEmptyApply,
      allowConfigGeneration: attrs['allow-config-generation'] ?? DEFAULT_RUN_OPTIONS.allowConfigGeneration,
      savePlan: attrs['save-plan'] ?? DEFAULT_RUN_OPTIONS.savePlan,
      terraformVersion: attrs['terraform-version'] ?? DEFAULT_RUN_OPTIONS.terraformVersion,
    };
    const settings = await this.workspaces.executionSettings(ws.id);
    const run = await inTransaction(this.ds, async (manager) => {
      const cv = cvRef
        ? await this.cvs.findById(cvRef.id, manager)
        : await this.cvs.newestUploaded(manager, ws.id);
      if (cvRef && (!cv || cv.workspaceId !== ws.id)) {
        throw invalid('Configuration version not found in this workspace', `${CV_POINTER}/data/id`);
      }
      if (!cv) throw invalid('The workspace has no uploaded configuration version', CV_POINTER);
      if (cv.status !== 'uploaded') {
        throw invalid(`Configuration version is ${cv.status}, not uploaded`, `${CV_POINTER}/data/id`);
      }
      // A speculative version makes the run plan-only, which the options are checked against.
      const planOnly = (attrs['plan-only'] ?? false) || cv.speculative;
      const issues = optionProblems(options, planOnly);
      if (issues.length) throw new DomainError('invalid', issues);
      const run = await this.queue.enqueue(manager, {
        ...options,
        workspaceId: ws.id,
        configurationVersionId: cv.id,
        message: attrs.message ?? MANUAL_MESSAGE,
        planOnly,
        autoApply: attrs['auto-apply'] ?? settings.autoApply,
        source: 'tfe-api',
        triggerReason: 'manual',
        createdById: p.kind === 'user' ? p.userId : null,
        triggeringRunId: null,
      });
      await this.runVariables.record(manager, run.id, variables);
      return run;
    });
    return { run, workspace: ws };
  }

  /** The run, if the principal may read runs of its workspace. */
  async requireReadable(p: Principal, id: string): Promise<RunEntity> {
    const run = await this.repo.findById(id);
    if (!run) throw notFound();
    await this.workspaces.requireAccess(p, run.workspaceId, ACTION_LEVEL.read);
    return run;
  }

  async list(
    p: Principal,
    workspaceId: string,
    statuses: RunStatus[] | undefined,
    page: PageParams,
  ): Promise<Page<RunEntity>> {
    const ws = await this.workspaces.requireAccess(p, workspaceId, ACTION_LEVEL.read);
    return this.repo.list(ws.id, statuses, page);
  }

  /** Runs among `ids` the principal may read, for `included` arrays and triggering-run links. */
  async readable(p: Principal, ids: string[]): Promise<RunEntity[]> {
    const runs = await this.repo.findByIds(ids);
    const levels = await this.permissions.workspaceLevels(
      p,
      await this.workspaces.findByIds(runs.map((r) => r.workspaceId)),
    );
    return runs.filter((r) => levels.get(r.workspaceId));
  }

  /**
   * The job a state upload link names, with its run (no permission check: the signed link is the
   * credential). Null when either is gone.
   */
  async jobWithRun(
    jobId: string,
  ): Promise<{ kind: RunJobEntity['kind']; status: RunJobEntity['status']; run: RunEntity } | null> {
    const job = await this.jobs.findById(jobId);
    const run = job && (await this.repo.findById(job.runId));
    return job && run ? { kind: job.kind, status: job.status, run } : null;
  }

  /** A plan or apply, if the principal may read runs of its workspace. */
  async requirePhase(p: Principal, id: string, kind: RunPhaseEntity['kind']): Promise<RunPhaseEntity> {
    const phase = await this.repo.findPhase(id);
    if (!phase || phase.kind !== kind) throw notFound();
    await this.requireReadable(p, phase.runId);
    return phase;
  }

  /** A plan whose JSON output the principal may read: admin on the workspace, as the real service asks. */
  async requirePlanOutput(p: Principal, id: string): Promise<RunPhaseEntity> {
    const phase = await this.repo.findPhase(id);
    if (!phase || phase.kind !== 'plan') throw notFound();
    const run = await this.repo.findById(phase.runId);
    if (!run) throw notFound();
    await this.workspaces.requireAccess(p, run.workspaceId, 'admin');
    return phase;
  }

  /**
   * A run action. The caller needs the action's access level (404 otherwise); the action must be
   * available in the run's current state, checked again by the compare-and-set (409 otherwise).
   */
  async act(p: Principal, id: string, action: RunAction): Promise<void> {
    const found = await this.repo.findById(id);
    if (!found) throw notFound();
    await this.workspaces.requireAccess(p, found.workspaceId, ACTION_LEVEL[action]);
    // Who made the move, for what it tells (run_updated_by of notifications).
    const by = p.kind === 'user' ? p.userId : null;
    const done = await inTransaction(this.ds, async (manager) => {
      const run = await this.repo.findById(id, manager);
      if (!run) throw notFound();
      const now = this.clock.now();
      const state = { ...run, cancelRequested: run.canceledAt !== null };
      if (!availableActions(state, now)[action]) return false;
      switch (action) {
        // Each move is from the status just read, which availableActions allowed.
        case 'apply':
          // A saved plan holds neither the lock nor the queue until now: it takes them, or waits.
          if (run.savePlan) return this.queue.applySaved(manager, run, by);
          if (!(await this.queue.move(manager, run, 'apply_queued', {}, by))) return false;
          await this.queue.queuePhase(manager, run, 'apply');
          return true;
        case 'discard':
          return this.queue.end(manager, run, 'discarded', {}, by);
        case 'cancel':
          if (cancelEffect(run.status) === 'end') {
            return this.queue.end(
              manager,
              run,
              'canceled',
              { canceledAt: now, forceCancelAvailableAt: null },
              by,
            );
          }
          return this.repo.requestCancel(
            manager,
            run.id,
            run.status,
            now,
            new Date(now.getTime() + FORCE_CANCEL_COOL_OFF_MS),
          );
        case 'force-cancel':
          return this.queue.end(manager, run, 'force_canceled', {}, by);
      }
    });
    if (!done) throw conflict(refusal(action, found.status), REFUSAL_CODES[action]);
  }

  /** Needs `write`; 409 when the workspace is locked already. */
  async lock(p: Principal, workspaceId: string): Promise<void> {
    const ws = await this.workspaces.requireAccess(p, workspaceId, 'write');
    const locked = await inTransaction(this.ds, (manager) =>
      this.workspaceLocks.lockFor(manager, ws.id, principalResource(p)),
    );
    if (!locked) throw conflict('The workspace is already locked', 'WORKSPACE_ALREADY_LOCKED');
  }

  /**
   * Needs `write`, and only the holder may unlock (409 naming who holds it otherwise); the next
   * pending run starts in the same transaction.
   */
  async unlock(p: Principal, workspaceId: string): Promise<void> {
    const ws = await this.workspaces.requireAccess(p, workspaceId, 'write');
    if (!ws.locked) throw conflict('The workspace is already unlocked', 'WORKSPACE_NOT_LOCKED');
    const holder = principalResource(p);
    if (ws.lockedByType !== holder.type || ws.lockedById !== holder.id) {
      throw conflict(
        `The workspace is locked by ${LOCK_HOLDER_NAMES[ws.lockedByType ?? 'users']}`,
        'WORKSPACE_LOCKED_BY_ANOTHER',
      );
    }
    const unlocked = await inTransaction(this.ds, async (manager) => {
      if (!(await this.workspaceLocks.unlock(manager, ws.id))) return false;
      await this.queue.advance(manager, ws.id);
      return true;
    });
    if (!unlocked) throw conflict('The workspace is already unlocked', 'WORKSPACE_NOT_LOCKED');
  }

  /**
   * Needs admin: unlocks whoever holds the lock (409 when it is not locked), which also gives up the
   * state versions still waiting for their content (see the state-versions module's unlock hook).
   */
  async forceUnlock(p: Principal, workspaceId: string): Promise<void> {
    const ws = await this.workspaces.requireAccess(p, workspaceId, 'admin');
    const unlocked = await inTransaction(this.ds, async (manager) => {
      if (!(await this.workspaceLocks.unlock(manager, ws.id, { forced: true }))) return false;
      await this.queue.advance(manager, ws.id);
      return true;
    });
    if (!unlocked) throw conflict('The workspace is already unlocked', 'WORKSPACE_NOT_LOCKED');
  }
}

const LOCK_HOLDER_NAMES: Record<WorkspaceLockHolder['type'], string> = {
  users: 'User',
  teams: 'Team',
  organizations: 'Organization',
  runs: 'Run',
};

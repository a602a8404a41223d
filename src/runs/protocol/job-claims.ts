import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AgentContext, HEARTBEAT_INTERVAL_SECONDS } from './agent-context';
import { Clock } from '../../common/clock';
import { inTransaction } from '../../common/sql/transaction';
import { DomainError, notFound } from '../../common/errors/domain-error';
import { ChangeEpoch } from '../../common/cache/change-epoch';
import { OrganizationsService } from '../../organizations/organizations.service';
import { WorkspacesService } from '../../workspaces/workspaces.service';
import type { WorkspaceEntity } from '../../workspaces/entities/workspace.entity';
import type { WorkspaceQueueState } from '../../workspaces/workspaces.repository';
import { RunJobEntity } from '../entities/run-job.entity';
import { RunEntity } from '../entities/run.entity';
import { runOptionsWire } from '../run-options';
import { ClaimCandidate, ClaimScope, RunJobsRepository } from './run-jobs.repository';
import { ClaimedJobs } from './claimed-jobs';
import { JobSignals } from './job-signals.service';
import { JobLinks, JobPayload, JobVariable } from './agent-protocol.types';
import { JOB_LINK_SECONDS, RunLinks } from '../run-links';
import { NewRun } from '../run-queue.rows';
import { RunQueueService } from '../run-queue.service';
import { PolicyGateRegistry } from '../policy-gate.registry';
import { PhaseKind, RunStatus } from '../run-rules';
import { StateHandoffRegistry } from '../state-handoff.registry';
import { FixedVariables, RunSnapshotsService } from '../../variables/run-snapshots.service';

/** How many queued jobs one claim looks at, so concurrent claimers spread over them. */
const CANDIDATES = 8;

const RUNNING: Record<PhaseKind, RunStatus> = { plan: 'planning', apply: 'applying' };

/** What a claim needs of a job's workspace: the variables' scope and what its payload names. */
export type ClaimedWorkspace = Pick<
  WorkspaceEntity,
  'id' | 'name' | 'organizationId' | 'projectId' | 'currentStateVersionId'
>;

/** A job this agent took: its run and workspace, and the variables fixed for it when it is a plan's. */
export interface Claimed {
  job: RunJobEntity;
  run: RunEntity;
  ws: ClaimedWorkspace;
  variables?: JobVariable[];
}

/**
 * The next job of a report that asks for one (`finish?next=true`), as the report's transaction
 * finds it: taken while the report moves its run on (`applyTo`), or, when queued jobs wait ahead,
 * those jobs as read then, for `claimWithin` to choose from.
 */
export class NextJob {
  /** Undefined until a job is taken (or the run it was for moved meanwhile: null). */
  taken: Claimed | null | undefined;
  ahead: ClaimCandidate[] | undefined;

  constructor(readonly agent: AgentContext) {}
}

/**
 * How executors take jobs, exactly once: a claim (which may wait for a job, a long poll), or the
 * next job taken in the transaction that records a report (RunJobsService). Each claim moves the
 * job, its phase and its run by compare-and-set in one transaction.
 */
@Injectable()
export class JobClaims {
  constructor(
    private readonly jobs: RunJobsRepository,
    private readonly queue: RunQueueService,
    private readonly workspaces: WorkspacesService,
    private readonly organizations: OrganizationsService,
    private readonly links: RunLinks,
    private readonly gates: PolicyGateRegistry,
    private readonly handoffs: StateHandoffRegistry,
    private readonly snapshots: RunSnapshotsService,
    private readonly claimedHere: ClaimedJobs,
    private readonly clock: Clock,
    private readonly signals: JobSignals,
    private readonly epoch: ChangeEpoch,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  /**
   * The next job of the agent's pool; when there is none, waits up to `waitMs` for one to be queued
   * (a long poll) and claims it then. Null when none came, the executor hung up (`signal`) or the
   * process stops. A waiting claim costs no query until a job of its scope is queued.
   */
  async claim(
    agent: AgentContext,
    origin: string,
    waitMs = 0,
    signal?: AbortSignal,
  ): Promise<JobPayload | null> {
    const scope = scopeOf(agent);
    const waiters = this.signals.waiters;
    const deadline = performance.now() + waitMs;
    for (let waited = false; ; waited = true) {
      const mark = waiters.mark(scope);
      const job = await this.claimNow(agent, scope, origin, waited);
      if (job) return job;
      const left = deadline - performance.now();
      if (left <= 0 || signal?.aborted || waiters.isClosed) return null;
      // A job queued while the read ran may not have been in it: read again rather than wait.
      if (waiters.wokenSince(scope, mark)) continue;
      const outcome = await waiters.wait(scope, left, signal);
      if (typeof outcome !== 'object') return null;
      if (signal?.aborted) {
        // Woken, but gone: the job is another waiter's.
        waiters.wake(outcome.woken);
        return null;
      }
    }
  }

  /**
   * The agent's next job taken in `manager`'s transaction (a report's, which then commits both), or
   * null when there is none: the same candidates and compare-and-set as a claim. The workspace is
   * the cache's when live, else read in the transaction. `answer` makes the job's payload once the
   * transaction has committed.
   */
  async claimWithin(manager: EntityManager, next: NextJob): Promise<Claimed | null> {
    if (next.taken !== undefined) return next.taken;
    const { agent, ahead } = next;
    // One round: the transaction reads the same candidates again however often it asks.
    return this.takeFirst(
      1,
      () => (ahead ? Promise.resolve(ahead) : this.jobs.candidates(scopeOf(agent), CANDIDATES, manager)),
      (id) => this.workspaces.findWith(manager, id),
      (candidate, ws) => this.take(manager, candidate, agent, ws),
    );
  }

  /**
   * The apply of `run`, whose plan `next.agent` reported in `manager`'s transaction and which now
   * goes on to its apply, taken by that agent in the same transaction when its pool runs the
   * workspace's jobs and no queued job waits ahead in the agent's scope (one read of the
   * candidates, kept in `next` for `claimWithin` when some do). True when the run moved here
   * (`next.taken` says whether the apply was taken); false: the caller queues the apply as usual.
   */
  async applyTo(
    manager: EntityManager,
    next: NextJob,
    run: RunEntity,
    extra: Partial<RunEntity>,
    ws: WorkspaceQueueState,
  ): Promise<boolean> {
    if (!(await this.mayTake(manager, next, ws))) return false;
    const job = await this.queue.applyTaken(manager, run, extra, ws, next.agent);
    next.taken = job && { job, run, ws: claimedWorkspace(run.workspaceId, ws) };
    return true;
  }

  /**
   * Queues a new run in `manager`'s transaction (RunQueueService.enqueue), from a report that takes
   * the next job: when the run starts at once and `next` may take it, as `applyTo` decides, its
   * plan goes straight to `next.agent` (RunQueueService.enqueueFor), with its variables fixed as a
   * claim of the plan fixes them.
   */
  async enqueueTo(
    manager: EntityManager,
    next: NextJob,
    spec: NewRun,
    ws: WorkspaceQueueState,
  ): Promise<RunEntity> {
    const taken = claimedWorkspace(spec.workspaceId, ws);
    let fixed: FixedVariables | undefined;
    const taker =
      next.taken === undefined && (await this.mayTake(manager, next, ws))
        ? {
            agentId: next.agent.agentId,
            poolId: next.agent.poolId,
            // Fixed as a claim of the plan fixes them, and inserted with the run.
            sealedVariables: async (runId: string) => (fixed = await this.snapshots.fix(manager, taken, runId)).sealed,
          }
        : undefined;
    const { run, job } = await this.queue.enqueueFor(manager, spec, ws, taker);
    // Not taken, but it may have queued a job (an older pending run of the workspace started): read again.
    if (!job && next.ahead?.length === 0) next.ahead = undefined;
    if (job) next.taken = { job, run, ws: taken, variables: fixed?.variables };
    return run;
  }

  /**
   * Whether `next.agent` may take a job of the workspace now, in the report's transaction: its
   * pool runs the workspace's jobs and no queued job waits ahead in its scope (read once, and kept
   * in `next` for `claimWithin`).
   */
  private async mayTake(manager: EntityManager, next: NextJob, ws: WorkspaceQueueState): Promise<boolean> {
    const scope = scopeOf(next.agent);
    if (!inScope(scope, ws)) return false;
    next.ahead ??= await this.jobs.candidates(scope, CANDIDATES, manager);
    return next.ahead.length === 0;
  }

  /** The payload of a job taken by `claimWithin`, once its transaction committed. */
  answer(claimed: Claimed, origin: string): Promise<JobPayload> {
    this.claimedHere.keep(claimed.job);
    return this.payload(claimed, origin);
  }

  /**
   * The next job of the agent's pool, or null when there is none (one indexed read, no write). The
   * workspace of each candidate is read before its claim, through the workspace cache (which a
   * claim that `waited` brings up to date first): the claim fixes a plan's variables for the
   * workspace's project, and the answer names the workspace.
   */
  private async claimNow(
    agent: AgentContext,
    scope: ClaimScope,
    origin: string,
    waited: boolean,
  ): Promise<JobPayload | null> {
    if (waited && this.epoch.enabled) await this.epoch.sync();
    const claimed = await this.takeFirst(
      3,
      () => this.jobs.candidates(scope, CANDIDATES),
      (id) => this.workspaceOf(id),
      (candidate, ws) => inTransaction(this.ds, (m) => this.take(m, candidate, agent, ws)),
    );
    return claimed && this.answer(claimed, origin);
  }

  /**
   * The first candidate `take` claims, over up to `rounds` reads of the candidates (others may
   * take a read's candidates first); null once a read finds none. A candidate whose workspace is
   * gone is passed over.
   */
  private async takeFirst(
    rounds: number,
    read: () => Promise<ClaimCandidate[]>,
    workspace: (id: string) => Promise<WorkspaceEntity | null>,
    take: (candidate: ClaimCandidate, ws: WorkspaceEntity) => Promise<Claimed | null>,
  ): Promise<Claimed | null> {
    for (let round = 0; round < rounds; round++) {
      const candidates = await read();
      if (!candidates.length) return null;
      for (const candidate of spread(candidates)) {
        const ws = await workspace(candidate.run.workspaceId);
        const claimed = ws && (await take(candidate, ws));
        if (claimed) return claimed;
      }
    }
    return null;
  }

  /** The workspace, or null once deleted (its jobs go with it). */
  private async workspaceOf(id: string): Promise<WorkspaceEntity | null> {
    try {
      return await this.workspaces.requireById(id);
    } catch (err) {
      if (err instanceof DomainError && err.kind === 'not-found') return null;
      throw err;
    }
  }

  /**
   * Takes the candidate in `manager`'s transaction; null when another claimer took it first. The
   * job, its run and its phase are as the candidates read them: the job's compare-and-set proves it
   * was still queued, and the run and the phase move by compare-and-set from the statuses read.
   */
  private async take(
    manager: EntityManager,
    candidate: ClaimCandidate,
    agent: AgentContext,
    ws: WorkspaceEntity,
  ): Promise<Claimed | null> {
    const { run, phase } = candidate;
    const at = this.clock.now();
    if (!(await this.jobs.claim(manager, candidate.job.id, agent.agentId, at))) return null;
    const job: RunJobEntity = Object.assign(new RunJobEntity(), candidate.job, {
      status: 'claimed',
      agentId: agent.agentId,
      claimedAt: at,
      heartbeatAt: at,
    });
    if (job.kind === 'policy-evaluation') {
      if (job.evaluationId) await this.gates.get()?.claimed(manager, job.evaluationId, at);
      return { job, run, ws };
    }
    if (!phase) throw notFound();
    await this.queue.movePhase(manager, phase, 'running', {
      agentId: agent.agentId,
      agentPoolId: agent.poolId,
    });
    // The variables the run uses are fixed as its plan starts, read in this transaction so that
    // they are the ones current when the run moved to planning, and kept in the run's row by the
    // same write that moves it; its apply receives the same.
    const fixed = job.kind === 'plan' ? await this.snapshots.fix(manager, ws, run.id) : undefined;
    await this.queue.move(manager, run, RUNNING[job.kind], fixed ? { variableSnapshot: fixed.sealed } : {});
    return { job, run, ws, variables: fixed?.variables };
  }

  private async payload({ job, run, ws, variables }: Claimed, origin: string): Promise<JobPayload> {
    const org = await this.organizations.requireById(ws.organizationId);
    const links: JobLinks = {
      configuration: this.links.configurationDownload(origin, run.configurationVersionId, JOB_LINK_SECONDS),
    };
    const gate = this.gates.get();
    let evaluation: JobPayload['policy-evaluation'];
    if (job.kind === 'policy-evaluation') {
      if (!job.evaluationId || !gate) throw notFound();
      links['plan-json'] = this.links.phaseDownload(origin, run.planId, 'plan-json', JOB_LINK_SECONDS);
      evaluation = await gate.spec(job.evaluationId, origin);
    } else if (job.kind === 'plan') {
      links.logs = this.links.logAppend(origin, job.id);
      links['plan-json'] = this.links.phaseUpload(origin, job.id, 'plan-json');
      links['plan-file'] = this.links.phaseUpload(origin, job.id, 'plan-file');
    } else {
      links.logs = this.links.logAppend(origin, job.id);
      links['plan-file'] = this.links.phaseDownload(origin, run.planId, 'plan-file', JOB_LINK_SECONDS);
    }
    const handoff = this.handoffs.get();
    if (handoff && job.kind !== 'policy-evaluation') {
      const expiresAt = Math.floor(this.clock.now().getTime() / 1000) + JOB_LINK_SECONDS;
      Object.assign(links, handoff.links(origin, { id: job.id, kind: job.kind }, ws, expiresAt));
    }
    return {
      id: job.id,
      kind: job.kind,
      'run-id': run.id,
      'workspace-id': ws.id,
      'workspace-name': ws.name,
      organization: org.name,
      'is-destroy': run.isDestroy,
      'plan-only': run.planOnly,
      ...runOptionsWire(run),
      'heartbeat-interval-seconds': HEARTBEAT_INTERVAL_SECONDS,
      links,
      ...(job.kind === 'policy-evaluation'
        ? {}
        : { variables: variables ?? this.snapshots.open(run.id, run.variableSnapshot) }),
      ...(evaluation ? { 'policy-evaluation': evaluation } : {}),
    };
  }
}

function claimedWorkspace(id: string, ws: WorkspaceQueueState): ClaimedWorkspace {
  const { name, organizationId, projectId, currentStateVersionId } = ws;
  return { id, name, organizationId, projectId, currentStateVersionId };
}

/** Whether a job for the workspace's pool (or, without one, its organization) is the scope's to claim. */
function inScope(scope: ClaimScope, ws: Pick<WorkspaceQueueState, 'agentPoolId' | 'organizationId'>): boolean {
  if (ws.agentPoolId !== null) return ws.agentPoolId === scope.poolId;
  return scope.organizationScoped && ws.organizationId === scope.organizationId;
}

function scopeOf(agent: AgentContext): ClaimScope {
  return {
    poolId: agent.poolId,
    organizationId: agent.organizationId,
    organizationScoped: agent.organizationScoped,
  };
}

/** The candidates from a random one on, so that a burst of claims does not all collide on the first. */
function spread<T>(candidates: readonly T[]): T[] {
  const offset = Math.floor(Math.random() * candidates.length);
  return [...candidates.slice(offset), ...candidates.slice(0, offset)];
}

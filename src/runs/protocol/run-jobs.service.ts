import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AgentContext, HEARTBEAT_INTERVAL_SECONDS } from './agent-context';
import { Clock } from '../../common/clock';
import { inTransaction } from '../../common/sql/transaction';
import { conflict, DomainError, notFound } from '../../common/errors/domain-error';
import { ChangeEpoch } from '../../common/cache/change-epoch';
import { OrganizationsService } from '../../organizations/organizations.service';
import { WorkspacesService } from '../../workspaces/workspaces.service';
import type { WorkspaceEntity } from '../../workspaces/entities/workspace.entity';
import { ConfigurationVersionsRepository } from '../configuration-versions.repository';
import { RunJobEntity } from '../entities/run-job.entity';
import { RunEntity } from '../entities/run.entity';
import { runOptionsWire } from '../run-options';
import { ClaimScope, RunJobsRepository } from './run-jobs.repository';
import { JobSignals } from './job-signals.service';
import { JobLinks, JobPayload, JobVariable } from './agent-protocol.types';
import { JOB_LINK_SECONDS, RunLinks } from '../run-links';
import { RunQueueService } from '../run-queue.service';
import { EvaluationReport, PolicyGateRegistry } from '../policy-gate.registry';
import { RunPolicyTransitions } from '../run-policy-transitions';
import { afterReport, isFinal, JobReport, PhaseKind, RunStatus } from '../run-rules';
import { RunTriggerFiring } from '../run-trigger-firing';
import { StateHandoffRegistry } from '../state-handoff.registry';
import { RunsRepository } from '../runs.repository';
import { RunSnapshotsService } from '../../variables/run-snapshots.service';

/** How many queued jobs one claim looks at, so concurrent claimers spread over them. */
const CANDIDATES = 8;

const RUNNING: Record<PhaseKind, RunStatus> = { plan: 'planning', apply: 'applying' };

/** The finish body in one canonical form, so a repeat compares equal to the first. */
export function canonicalReport(report: JobReport): string {
  return JSON.stringify([
    report.status,
    report.errorMessage,
    report.hasChanges,
    report.resourceAdditions,
    report.resourceChanges,
    report.resourceDestructions,
    report.resourceImports,
  ]);
}

/**
 * The server side of the executor protocol: claim (exactly once), heartbeat, finish (idempotent)
 * and the timeout of jobs whose executor went quiet. Each write moves the job, its phase and its
 * run in one transaction, every row by compare-and-set.
 */
@Injectable()
export class RunJobsService {
  constructor(
    private readonly jobs: RunJobsRepository,
    private readonly runs: RunsRepository,
    private readonly cvs: ConfigurationVersionsRepository,
    private readonly queue: RunQueueService,
    private readonly firing: RunTriggerFiring,
    private readonly workspaces: WorkspacesService,
    private readonly organizations: OrganizationsService,
    private readonly links: RunLinks,
    private readonly policy: RunPolicyTransitions,
    private readonly gates: PolicyGateRegistry,
    private readonly handoffs: StateHandoffRegistry,
    private readonly snapshots: RunSnapshotsService,
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
    const scope = {
      poolId: agent.poolId,
      organizationId: agent.organizationId,
      organizationScoped: agent.organizationScoped,
    };
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
    for (let round = 0; round < 3; round++) {
      const candidates = await this.jobs.candidates(scope, CANDIDATES);
      if (!candidates.length) return null;
      // Start at a different candidate per claimer so that a burst of claims does not all collide.
      const offset = Math.floor(Math.random() * candidates.length);
      for (let i = 0; i < candidates.length; i++) {
        const candidate = candidates[(offset + i) % candidates.length];
        const ws = await this.workspaceOf(candidate.workspaceId);
        const job = ws && (await this.tryClaim(candidate.id, agent, ws));
        if (ws && job) return this.payload(job.job, job.run, ws, origin, job.variables);
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

  /** The job claimed, its run, and the variables fixed for it when it is a plan's (read later otherwise). */
  private async tryClaim(
    id: string,
    agent: AgentContext,
    ws: WorkspaceEntity,
  ): Promise<{ job: RunJobEntity; run: RunEntity; variables?: JobVariable[] } | null> {
    return inTransaction(this.ds, async (manager) => {
      const at = this.clock.now();
      if (!(await this.jobs.claim(manager, id, agent.agentId, at))) return null;
      const found = await this.jobs.findWithRun(manager, id);
      if (!found || found.run.workspaceId !== ws.id) throw notFound();
      const { job, run, phase } = found;
      if (job.kind === 'policy-evaluation') {
        if (job.evaluationId) await this.gates.get()?.claimed(manager, job.evaluationId, at);
        return { job, run };
      }
      if (!phase) throw notFound();
      await this.queue.movePhase(manager, phase, 'running', {
        agentId: agent.agentId,
        agentPoolId: agent.poolId,
      });
      await this.queue.move(manager, run, RUNNING[job.kind]);
      // The variables the run uses are fixed as its plan starts, read in this transaction so that
      // they are the ones current when the run moved to planning; its apply receives the same.
      if (job.kind === 'plan') {
        return { job, run, variables: await this.snapshots.fix(manager, ws, run.id) };
      }
      return { job, run };
    });
  }

  private async payload(
    job: RunJobEntity,
    run: RunEntity,
    ws: WorkspaceEntity,
    origin: string,
    variables?: JobVariable[],
  ): Promise<JobPayload> {
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
        : { variables: variables ?? (await this.snapshots.of(run.id)) }),
      ...(evaluation ? { 'policy-evaluation': evaluation } : {}),
    };
  }

  /**
   * `running`, or `canceled` once the run was canceled (or the job ended without the executor): one
   * read of the job with its run, and the heartbeat's write only when the job goes on.
   */
  async heartbeat(agent: AgentContext, id: string): Promise<'running' | 'canceled'> {
    const held = await this.jobs.heartbeatState(id);
    if (!held || held.agentId !== agent.agentId) throw notFound();
    if (held.status !== 'claimed') return 'canceled';
    if (!held.run || held.run.canceled || isFinal(held.run.status)) return 'canceled';
    await this.jobs.heartbeat(id, agent.agentId, this.clock.now());
    return 'running';
  }

  /**
   * Records the outcome and moves the run on in one transaction. The same report again is
   * accepted (the executor retried); a different one, or any report on a job that ended without
   * it (timed out, canceled), is a 409.
   */
  async finish(agent: AgentContext, claimed: RunJobEntity | string, report: JobReport): Promise<void> {
    const job = await this.claimedBy(agent, claimed);
    if (job.kind === 'policy-evaluation') {
      throw conflict('This is a policy-evaluation job: report its policy results');
    }
    const kind = job.kind;
    const canonical = canonicalReport(report);
    const recorded = await inTransaction(this.ds, async (manager) => {
      const at = this.clock.now();
      const status = report.status === 'finished' ? 'finished' : 'errored';
      if (!(await this.jobs.finish(manager, job.id, status, canonical, at))) return false;
      // Locked, and read as last committed: a cancel accepted a moment ago is seen here, and one
      // asked for from now on waits for this commit (then finds the run moved on, a 409).
      const { run, phase } = (await this.runs.findWithPhase(manager, job.runId, job.phaseId, true)) ?? {};
      if (!run || !phase) throw notFound();
      const to = afterReport(kind, report, { ...run, cancelRequested: run.canceledAt !== null });
      await this.queue.movePhase(manager, phase, to === 'canceled' ? 'canceled' : status, {
        hasChanges: job.kind === 'plan' ? report.hasChanges : phase.hasChanges,
        resourceAdditions: report.resourceAdditions,
        resourceChanges: report.resourceChanges,
        resourceDestructions: report.resourceDestructions,
        resourceImports: report.resourceImports,
        errorMessage: report.errorMessage,
      });
      const extra: Partial<RunEntity> = kind === 'plan' ? { hasChanges: report.hasChanges } : {};
      if (to === 'errored') extra.errorMessage = report.errorMessage ?? `The ${kind} errored`;
      // A successful plan is checked against the workspace's policy sets before anything else.
      const planned = kind === 'plan' && !['errored', 'canceled'].includes(to);
      // The workspace is locked once: for the check and the apply's job alike, or for the queue and
      // the run triggers of an applied run.
      const applied = to === 'applied';
      const ws =
        planned || applied ? await this.workspaces.lockForQueue(manager, run.workspaceId) : undefined;
      if (planned && !ws) throw notFound();
      if (planned && ws && (await this.policy.startCheck(manager, run, extra, ws))) return true;
      if (isFinal(to))
        await this.queue.end(manager, run, to, extra, null, { locked: ws ?? undefined, reported: kind });
      else if (await this.queue.move(manager, run, to, extra)) {
        if (to === 'apply_queued') await this.queue.queuePhase(manager, run, 'apply', ws ?? undefined);
      }
      if (applied) {
        // A provisional version becomes the workspace's configuration once a run of it applies.
        await this.cvs.confirm(manager, run.configurationVersionId);
        await this.firing.fire(manager, run, ws ?? null);
      }
      return true;
    });
    await this.afterReport(agent, job.id, recorded, canonical);
  }

  /**
   * Records one policy evaluation's results; when it was the check's last, the verdict moves the
   * run on in the same transaction. Idempotent like `finish`.
   */
  async finishEvaluation(
    agent: AgentContext,
    claimed: RunJobEntity | string,
    report: EvaluationReport,
  ): Promise<void> {
    const job = await this.claimedBy(agent, claimed);
    const gate = this.gates.get();
    if (job.kind !== 'policy-evaluation' || !job.evaluationId || !gate) {
      throw conflict(`This is a ${job.kind} job: report its outcome without policy results`);
    }
    const evaluationId = job.evaluationId;
    const canonical = JSON.stringify(report);
    const recorded = await inTransaction(this.ds, async (manager) => {
      const at = this.clock.now();
      const status = report.status === 'finished' ? 'finished' : 'errored';
      if (!(await this.jobs.finish(manager, job.id, status, canonical, at))) return false;
      const verdict = await gate.report(manager, evaluationId, report, at);
      const run = await this.runs.findById(job.runId, manager);
      if (verdict && run) await this.policy.decide(manager, run, verdict.verdict, verdict.reason);
      return true;
    });
    await this.afterReport(agent, job.id, recorded, canonical);
  }

  private async afterReport(
    agent: AgentContext,
    jobId: string,
    recorded: boolean,
    canonical: string,
  ): Promise<void> {
    if (recorded) return;
    const now = await this.jobs.findById(jobId);
    if (now?.report === canonical) return;
    if (now?.report) throw conflict('A different report was already recorded for this job');
    throw conflict(`The job is ${now?.status ?? 'gone'}: it no longer takes a report`);
  }

  /** A job as `ownJob` read it (the request read it once to learn its kind), or its id, read now. */
  private claimedBy(agent: AgentContext, claimed: RunJobEntity | string): Promise<RunJobEntity> {
    return typeof claimed === 'string' ? this.ownJob(agent, claimed) : Promise.resolve(claimed);
  }

  /**
   * The job if this agent claimed it; 404 otherwise, whether it exists or not. Its kind says which
   * report it takes; the report (`finish`, `finishEvaluation`) may be given the job as read here.
   */
  async ownJob(agent: AgentContext, id: string): Promise<RunJobEntity> {
    const job = await this.jobs.findById(id);
    if (!job || job.agentId !== agent.agentId) throw notFound();
    return job;
  }
}

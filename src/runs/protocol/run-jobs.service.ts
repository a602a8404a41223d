import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AgentContext } from './agent-context';
import { Clock } from '../../common/clock';
import { inTransaction } from '../../common/sql/transaction';
import { conflict, notFound } from '../../common/errors/domain-error';
import { WorkspaceLocks } from '../../workspaces/workspace-locks.service';
import { ConfigurationVersionsRepository } from '../configuration-versions.repository';
import { RunJobEntity } from '../entities/run-job.entity';
import { RunEntity } from '../entities/run.entity';
import { RunJobsRepository } from './run-jobs.repository';
import { ClaimedJobs } from './claimed-jobs';
import { Claimed, JobClaims, NextJob } from './job-claims';
import { JobPayload } from './agent-protocol.types';
import { RunQueueService } from '../run-queue.service';
import { EvaluationReport, PolicyGateRegistry } from '../policy-gate.registry';
import { RunPolicyTransitions } from '../run-policy-transitions';
import { afterReport, isFinal, JobReport, PhaseKind } from '../run-rules';
import { RunTriggerFiring } from '../run-trigger-firing';
import { RunsRepository } from '../runs.repository';

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
 * The server side of the executor protocol: claim (exactly once, JobClaims), heartbeat, finish
 * (idempotent) and the timeout of jobs whose executor went quiet. Each write moves the job, its
 * phase and its run in one transaction, every row by compare-and-set.
 */
@Injectable()
export class RunJobsService {
  constructor(
    private readonly jobs: RunJobsRepository,
    private readonly runs: RunsRepository,
    private readonly cvs: ConfigurationVersionsRepository,
    private readonly queue: RunQueueService,
    private readonly firing: RunTriggerFiring,
    private readonly workspaceLocks: WorkspaceLocks,
    private readonly policy: RunPolicyTransitions,
    private readonly gates: PolicyGateRegistry,
    private readonly claims: JobClaims,
    private readonly claimedHere: ClaimedJobs,
    private readonly clock: Clock,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  /** The next job of the agent's pool (JobClaims.claim): for callers that hold this service. */
  claim(agent: AgentContext, origin: string, waitMs = 0, signal?: AbortSignal): Promise<JobPayload | null> {
    return this.claims.claim(agent, origin, waitMs, signal);
  }

  /**
   * `running`, or `canceled` once the run was canceled (or the job ended without the executor): the
   * heartbeat's one conditional write while the job goes on; when it finds nothing to write, the
   * job was this agent's and ended (`canceled`) or never was (404).
   */
  async heartbeat(agent: AgentContext, id: string): Promise<'running' | 'canceled'> {
    if (await this.jobs.heartbeat(id, agent.agentId, this.clock.now())) return 'running';
    if ((await this.jobs.agentOf(id)) !== agent.agentId) throw notFound();
    return 'canceled';
  }

  /**
   * Records the outcome and moves the run on in one transaction. The same report again is
   * accepted (the executor retried); a different one, or any report on a job that ended without
   * it (timed out, canceled), is a 409.
   */
  async finish(agent: AgentContext, claimed: RunJobEntity | string, report: JobReport): Promise<void> {
    await this.record(agent, claimed, report, false);
  }

  /**
   * `finish`, then the agent's next job taken in the same transaction (JobClaims.claimWithin), so
   * that the report and the claim commit together: its payload, or null when there was none. The
   * same report again (the executor retried) claims on its own.
   */
  async finishAndClaim(
    agent: AgentContext,
    claimed: RunJobEntity | string,
    report: JobReport,
    origin: string,
  ): Promise<JobPayload | null> {
    const { recorded, next } = await this.record(agent, claimed, report, true);
    if (next) return this.claims.answer(next, origin);
    return recorded ? null : this.claims.claim(agent, origin, 0);
  }

  /** Whether this request recorded the report (not an earlier one), and the next job it took. */
  private async record(
    agent: AgentContext,
    claimed: RunJobEntity | string,
    report: JobReport,
    claimNext: boolean,
  ): Promise<{ recorded: boolean; next: Claimed | null }> {
    const job = await this.claimedBy(agent, claimed);
    if (job.kind === 'policy-evaluation') {
      throw conflict('This is a policy-evaluation job: report its policy results');
    }
    const kind = job.kind;
    const canonical = canonicalReport(report);
    let next: Claimed | null = null;
    const recorded = await inTransaction(this.ds, async (manager) => {
      next = null;
      const taking = claimNext ? new NextJob(agent) : undefined;
      if (!(await this.moveOn(manager, job, kind, report, canonical, taking))) return false;
      if (taking) next = await this.claims.claimWithin(manager, taking);
      return true;
    });
    await this.afterReport(agent, job.id, recorded, canonical);
    return { recorded, next };
  }

  /** Records the report and moves the run on; false when the job no longer takes it. */
  private async moveOn(
    manager: EntityManager,
    job: RunJobEntity,
    kind: PhaseKind,
    report: JobReport,
    canonical: string,
    next?: NextJob,
  ): Promise<boolean> {
    const at = this.clock.now();
    const status = report.status === 'finished' ? 'finished' : 'errored';
    if (!(await this.jobs.finish(manager, job.id, status, canonical, at))) return false;
    // Locked, and read as last committed: a cancel accepted a moment ago is seen here, and one
    // asked for from now on waits for this commit (then finds the run moved on, a 409). With the
    // run's sealed variables only where the apply may be handed over at once (applyTo).
    const handsOver = kind === 'plan' && next !== undefined;
    const found = await this.runs.findWithPhase(manager, job.runId, job.phaseId, true, handsOver);
    const { run, phase } = found ?? {};
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
      planned || applied ? await this.workspaceLocks.lockForQueue(manager, run.workspaceId) : undefined;
    if (planned && !ws) throw notFound();
    if (planned && ws && (await this.policy.startCheck(manager, run, extra, ws))) return true;
    // A report that takes the next job may take its own run's apply without queueing it first.
    const handedOver =
      to === 'apply_queued' && next && ws && (await this.claims.applyTo(manager, next, run, extra, ws));
    if (isFinal(to))
      await this.queue.end(manager, run, to, extra, null, { locked: ws ?? undefined, reported: kind });
    else if (!handedOver && (await this.queue.move(manager, run, to, extra))) {
      if (to === 'apply_queued') await this.queue.queuePhase(manager, run, 'apply', ws ?? undefined);
    }
    if (applied) {
      // A provisional version becomes the workspace's configuration once a run of it applies.
      await this.cvs.confirm(manager, run.configurationVersionId);
      await this.firing.fire(manager, run, ws ?? null, next);
    }
    return true;
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
    this.claimedHere.release(jobId);
    if (recorded) return;
    const now = await this.jobs.findById(jobId);
    // Gone with its workspace: as unknown as a job never claimed (a job kept by ClaimedJobs is not read first).
    if (!now) throw notFound();
    if (now.report === canonical) return;
    if (now.report) throw conflict('A different report was already recorded for this job');
    throw conflict(`The job is ${now.status}: it no longer takes a report`);
  }

  /** A job as `ownJob` read it (the request read it once to learn its kind), or its id, read now. */
  private claimedBy(agent: AgentContext, claimed: RunJobEntity | string): Promise<RunJobEntity> {
    return typeof claimed === 'string' ? this.ownJob(agent, claimed) : Promise.resolve(claimed);
  }

  /**
   * The job if this agent claimed it; 404 otherwise, whether it exists or not. Its kind says which
   * report it takes; the report (`finish`, `finishEvaluation`) may be given the job as read here.
   * A job this process handed out is taken as it was claimed (ClaimedJobs), without a read.
   */
  async ownJob(agent: AgentContext, id: string): Promise<RunJobEntity> {
    const here = this.claimedHere.find(id, agent.agentId);
    if (here) return here;
    const job = await this.jobs.findById(id);
    if (!job || job.agentId !== agent.agentId) throw notFound();
    return job;
  }
}

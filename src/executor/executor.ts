import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { extract } from 'tar';
import { runCommand } from './command-runner';
import { JobOutput } from './job-output';
import { envVariables, SecretMask, sensitiveValues, writeTfvars } from './job-variables';
import { DEFAULT_REPORT_TIMEOUT_SECONDS, ExecutorOptions } from './options';
import { applyLogHeader } from './apply-log-header';
import { droppedArguments, planArguments } from './plan-arguments';
import { ChangeCounts, countApplyChanges, countPlanChanges } from './plan-summary';
import {
  EvaluationContext,
  EvaluationError,
  evaluatePolicies,
  fetchPlanJson,
  parameterSecrets,
} from './policy-evaluation';
import { PendingReport, PendingReports } from './pending-reports';
import { JobSource } from './job-source';
import { Job, JobReport, ProtocolClient, Registration } from './protocol-client';
import { DEFAULT_RETRY, RetryPolicy, withRetry } from './retry';

export type Logger = (message: string) => void;

/** A failure the job report names as it is (the operator's command failed, the run was canceled). */
class JobFailure extends Error {}

/** Where, inside the work directory, reports wait until Plinth has taken them. */
export const PENDING_REPORTS_DIR = 'plinth-pending-reports';

/** The state file of the tool's local backend, in the configuration's directory. */
export const STATE_FILE = 'terraform.tfstate';

/** What an apply left to hand over: its state, when it wrote one other than it was given. */
interface StateHandoff {
  left?: Buffer;
}

/** The state file's bytes if it exists and differs from `before` (what the job put there). */
async function changedState(file: string, before: Buffer | null): Promise<Buffer | undefined> {
  const after = await readFile(file).catch(() => undefined);
  return after && !(before && after.equals(before)) ? after : undefined;
}

/**
 * The reference executor: registers, claims jobs of its pool, runs the operator's commands for
 * each and reports. One job at a time; run several processes for more.
 */
export class Executor {
  private readonly reports: PendingReports;
  /** Reports Plinth has not taken yet (it was away past the job's deadline): tried before each claim. */
  private unsent: PendingReport[] = [];
  /** When Plinth last heard of the job in hand (its claim, then each heartbeat). */
  private heardAt = 0;

  constructor(
    private readonly options: ExecutorOptions,
    private readonly client: ProtocolClient,
    private readonly log: Logger,
    private readonly retry: RetryPolicy = DEFAULT_RETRY,
  ) {
    this.reports = new PendingReports(join(options.workDir, PENDING_REPORTS_DIR), client);
  }

  /**
   * Runs until `signal` aborts (the job in hand is finished first) or `maxJobs` jobs are done.
   * Reports an earlier start left on disk are sent first. A report sent while the executor goes on
   * asks for the next job in the same request; a job handed over that way is run without a claim.
   */
  async run(signal?: AbortSignal): Promise<void> {
    const registration = await this.client.register(this.options.name);
    this.log(`registered as ${registration['agent-id']} in pool ${registration['pool-id']}`);
    try {
      this.unsent = await this.reports.load(registration['pool-id']);
    } catch (err) {
      this.log(`cannot read the reports kept from an earlier start: ${(err as Error).message}`);
    }
    const jobs = new JobSource(this.client, this.log, registration);
    let done = 0;
    // A job handed over is claimed for this agent: it runs even when the executor was stopped meanwhile.
    while (jobs.holdsJob || !signal?.aborted) {
      await this.resend();
      const job = await jobs.next(signal);
      if (!job) continue;
      done++;
      const last = !!this.options.maxJobs && done >= this.options.maxJobs;
      jobs.hand(await this.runJob(job, registration, signal, !last));
      if (last) return;
    }
  }

  /**
   * Runs one job in a fresh directory and reports how it ended; never throws for the job's own
   * failures. The report is kept on disk until Plinth takes it; `signal` cuts short the wait for
   * an absent Plinth (the next start sends it). With `goOn`, unless `signal` has aborted by the
   * time of the report, the report asks for the next job: it is returned when Plinth handed one over.
   */
  async runJob(
    job: Job,
    registration: Registration,
    signal?: AbortSignal,
    goOn = false,
  ): Promise<Job | null> {
    this.heardAt = Date.now();
    this.log(
      `${job.kind} job ${job.id} of run ${job['run-id']} (${job.organization}/${job['workspace-name']})`,
    );
    const dir = await mkdtemp(join(this.options.workDir, 'plinth-job-'));
    const output = new JobOutput(this.client, job.links.logs, (m) => this.log(`${job.id}: ${m}`));
    const handoff: StateHandoff = {};
    let report: JobReport;
    try {
      if (job.kind === 'policy-evaluation') {
        report = { status: 'finished', results: await this.evaluate(job, dir, registration) };
      } else {
        report = { status: 'finished', ...(await this.execute(job, dir, output, registration, handoff)) };
      }
    } catch (err) {
      const known = err instanceof JobFailure || err instanceof EvaluationError;
      const message = known ? err.message : `executor error: ${(err as Error).message}`;
      output.append(`\n${message}\n`);
      report = { status: 'errored', 'error-message': message };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    await output.close();
    return this.report(
      {
        jobId: job.id,
        agentId: registration['agent-id'],
        poolId: registration['pool-id'],
        report,
        deadline: this.deadline(),
        log: output.unsent(),
        state:
          job.links['state-upload'] && handoff.left
            ? { url: job.links['state-upload'], content: handoff.left }
            : undefined,
      },
      signal,
      goOn && !signal?.aborted,
    );
  }

  /**
   * Plinth errors a job it has not heard of for its EXECUTOR_TIMEOUT; until then the job's files
   * and report are worth trying again.
   */
  private deadline(): number {
    const seconds = this.options.reportTimeoutSeconds ?? DEFAULT_REPORT_TIMEOUT_SECONDS;
    return this.heardAt + seconds * 1000;
  }

  /**
   * Keeps the report on disk, then sends it (with its log) until Plinth answers or the deadline
   * passes. With `next` every try asks for the next job: the job an answer carried is returned.
   */
  private async report(pending: PendingReport, signal?: AbortSignal, next = false): Promise<Job | null> {
    const { jobId, report } = pending;
    try {
      await this.reports.keep(pending);
    } catch (err) {
      this.log(`cannot keep the report of ${jobId} on disk, sending it anyway: ${(err as Error).message}`);
    }
    try {
      const delivery = await withRetry(
        async () => {
          const tried = await this.reports.deliver(pending, next);
          if (!tried.done) throw tried.error;
          return tried;
        },
        {
          deadline: pending.deadline,
          policy: this.retry,
          signal,
          onRetry: (err, waitMs) =>
            this.log(
              `reporting ${jobId} failed (${(err as Error).message}); trying again in ${Math.ceil(waitMs / 1000)} s`,
            ),
        },
      );
      this.log(
        delivery.refused
          ? `Plinth refused the ${report.status} report of ${jobId}: ${delivery.refused}`
          : `${jobId} ${report.status}`,
      );
      return delivery.next ?? null;
    } catch (err) {
      this.unsent.push(pending);
      this.log(
        `could not report ${jobId} (${(err as Error).message}); the report is kept and sent again ` +
          'before the next claim and at the next start',
      );
      return null;
    }
  }

  /** One more try for each report Plinth has not taken yet; these ask for no job (a claim follows). */
  private async resend(): Promise<void> {
    const waiting = this.unsent;
    this.unsent = [];
    for (const pending of waiting) {
      const tried = await this.reports.deliver(pending);
      if (!tried.done) {
        this.unsent.push(pending);
        continue;
      }
      const what = `the ${pending.report.status} report of ${pending.jobId}`;
      this.log(tried.refused ? `Plinth refused ${what}: ${tried.refused}` : `sent ${what}`);
    }
  }

  /** A download or upload of the job, tried again while Plinth is away, up to the job's deadline. */
  private transfer(what: () => Promise<void>): Promise<void> {
    return withRetry(what, { deadline: this.deadline(), policy: this.retry });
  }

  private async execute(
    job: Job,
    dir: string,
    output: JobOutput,
    registration: Registration,
    handoff: StateHandoff,
  ): Promise<ChangeCounts | Record<string, never>> {
    const workspace = join(dir, 'configuration');
    await mkdir(workspace);
    const archive = join(dir, 'configuration.tar.gz');
    await this.transfer(() => this.client.download(job.links.configuration, archive));
    await extract({ file: archive, cwd: workspace });
    await writeTfvars(workspace, job.variables ?? []);
    // The current state goes where the tool's local backend reads it (and an apply writes it).
    const stateFile = join(workspace, STATE_FILE);
    const stateLink = job.links.state;
    if (stateLink) await this.transfer(() => this.client.download(stateLink, stateFile));
    const before = stateLink ? await readFile(stateFile) : null;
    const planFile = join(dir, 'plan.bin');
    const planJson = join(dir, 'plan.json');
    const env = {
      ...process.env,
      ...envVariables(job.variables ?? []),
      PLINTH_PLAN_FILE: planFile,
      PLINTH_PLAN_JSON: planJson,
      PLINTH_IS_DESTROY: String(job['is-destroy']),
      PLINTH_TERRAFORM_VERSION: job['terraform-version'] ?? '',
      PLINTH_RUN_ID: job['run-id'],
      PLINTH_WORKSPACE_NAME: job['workspace-name'],
      PLINTH_ORGANIZATION: job.organization,
    };
    const heartbeatMs =
      (job['heartbeat-interval-seconds'] || registration['heartbeat-interval-seconds']) * 1000;
    const step = (name: 'plan' | 'show' | 'apply', args: string[] = []) =>
      this.step(job, this.options.commands[name], name, { cwd: workspace, env, args }, output, heartbeatMs);

    if (job.kind === 'apply') {
      if (!job.links['plan-file']) throw new JobFailure('the apply job carries no plan-file link');
      const saved = job.links['plan-file'];
      await this.transfer(() => this.client.download(saved, planFile));
      // The CLI skips the first three lines of an apply log: the banner its plan log showed already.
      output.append(applyLogHeader(job, this.options.toolVersion));
      try {
        await step('apply');
      } finally {
        // Applied, failed half-way or stopped: whatever state the apply left describes what exists.
        handoff.left = await changedState(stateFile, before);
      }
      return countApplyChanges(output.text) ?? {};
    }
    const args = planArguments(job);
    const dropped = droppedArguments(this.options.commands.plan, args);
    if (dropped.length) {
      // Planning without them would plan more (or other) changes than the run asked for.
      throw new JobFailure(
        `the run asks for ${dropped.join(' ')}, but the plan command does not pass "$@" on to the tool`,
      );
    }
    await step('plan', args);
    await step('show');
    const json = await readFile(planJson, 'utf8').catch(() => {
      throw new JobFailure('the show command wrote no plan JSON at $PLINTH_PLAN_JSON');
    });
    let counts: ChangeCounts;
    try {
      counts = countPlanChanges(json);
    } catch (err) {
      throw new JobFailure((err as Error).message);
    }
    const { 'plan-json': jsonLink, 'plan-file': fileLink } = job.links;
    if (jsonLink) await this.transfer(() => this.client.upload(jsonLink, json));
    if (fileLink) {
      const saved = await readFile(planFile);
      await this.transfer(() => this.client.upload(fileLink, saved));
    }
    return counts;
  }

  /** A policy-evaluation job: the engine on the set's snapshot, one result per policy. */
  private async evaluate(
    job: Job,
    dir: string,
    registration: Registration,
  ): Promise<Extract<JobReport, { results: unknown }>['results']> {
    const spec = job['policy-evaluation'];
    if (!spec) throw new JobFailure('the policy evaluation job carries no policy-evaluation');
    const heartbeatMs =
      (job['heartbeat-interval-seconds'] || registration['heartbeat-interval-seconds']) * 1000;
    const ctx: EvaluationContext = {
      download: (url, file) => this.transfer(() => this.client.download(url, file)),
      run: async (command, where) => {
        const output = new JobOutput(this.client, undefined);
        const result = await this.running(job, command, where, output, heartbeatMs);
        if (result.canceled) throw new JobFailure('the run was canceled; the policy engine was stopped');
        return { code: result.code, output: output.text };
      },
    };
    const planJson = join(dir, 'plan.json');
    await fetchPlanJson(ctx, job.links['plan-json'], planJson);
    const env = {
      ...process.env,
      PLINTH_RUN_ID: job['run-id'],
      PLINTH_WORKSPACE_NAME: job['workspace-name'],
      PLINTH_ORGANIZATION: job.organization,
    };
    return evaluatePolicies(spec, planJson, dir, this.options.policyCommands, env, ctx);
  }

  /**
   * Runs one command, heartbeating while it runs (its output goes up as it comes). A heartbeat
   * that says the run was canceled stops the command.
   */
  private async step(
    job: Job,
    command: string,
    name: string,
    where: { cwd: string; env: NodeJS.ProcessEnv; args?: readonly string[] },
    output: JobOutput,
    heartbeatMs: number,
  ): Promise<void> {
    const shown = where.args?.length ? ` (with ${where.args.join(' ')})` : '';
    output.append(`$ ${name}: ${command}${shown}\n`);
    const result = await this.running(job, command, where, output, heartbeatMs);
    if (result.canceled) throw new JobFailure(`the run was canceled; ${name} was stopped`);
    if (result.code !== 0) {
      const how = result.code === null ? `signal ${result.signal}` : `exit code ${result.code}`;
      throw new JobFailure(`${name} failed (${how})`);
    }
  }

  /**
   * One command with heartbeats; its output goes to `output`, which sends it on as it comes. A
   * heartbeat answering `canceled` stops the command at once, whatever becomes of the log (after a
   * force-cancel the job takes no more of it).
   */
  private async running(
    job: Job,
    command: string,
    where: { cwd: string; env: NodeJS.ProcessEnv; args?: readonly string[] },
    output: JobOutput,
    heartbeatMs: number,
  ): Promise<{ code: number | null; signal: NodeJS.Signals | null; canceled: boolean }> {
    // Sensitive values never reach the log, even one split across two chunks of output.
    const mask = new SecretMask([
      ...sensitiveValues(job.variables),
      ...(job['policy-evaluation'] ? parameterSecrets(job['policy-evaluation']) : []),
    ]);
    const running = runCommand(command, {
      ...where,
      onOutput: (chunk) => output.append(mask.push(chunk)),
    });
    let canceled = false;
    let beat: Promise<void> | undefined;
    const timer = setInterval(() => {
      beat ??= this.heartbeat(job)
        .then((status) => {
          if (status !== 'canceled' || canceled) return;
          canceled = true;
          this.log(`the run of ${job.id} was canceled: stopping the command`);
          running.stop();
        })
        .finally(() => (beat = undefined));
    }, heartbeatMs);
    try {
      const result = await running.done;
      output.append(mask.end());
      return { ...result, canceled };
    } finally {
      clearInterval(timer);
      await beat;
    }
  }

  /** One heartbeat; a failed one is logged and tried again at the next tick. */
  private async heartbeat(job: Job): Promise<'running' | 'canceled'> {
    try {
      const status = await this.client.heartbeat(job.id);
      this.heardAt = Date.now();
      return status;
    } catch (err) {
      this.log(`heartbeat of ${job.id} failed: ${(err as Error).message}`);
      return 'running';
    }
  }
}

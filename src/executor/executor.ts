import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { extract } from 'tar';
import { runCommand } from './command-runner';
import { ExecutorOptions } from './options';
import { ChangeCounts, countApplyChanges, countPlanChanges } from './plan-summary';
import { EvaluationContext, EvaluationError, evaluatePolicies, fetchPlanJson } from './policy-evaluation';
import { Job, JobReport, ProtocolClient, Registration } from './protocol-client';

export type Logger = (message: string) => void;

/** A failure the job report names as it is (the operator's command failed, the run was canceled). */
class JobFailure extends Error {}

/** Waits `ms`, or until `signal` aborts; the abort listener goes with the wait (polls are many). */
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

/** Slows down after failed polls (Plinth restarting, network down), up to a minute between tries. */
const MAX_BACKOFF_MS = 60_000;

/**
 * The reference executor: registers, claims jobs of its pool, runs the operator's commands for
 * each and reports. One job at a time; run several processes for more.
 */
export class Executor {
  constructor(
    private readonly options: ExecutorOptions,
    private readonly client: ProtocolClient,
    private readonly log: Logger,
  ) {}

  /** Runs until `signal` aborts (the job in hand is finished first) or `maxJobs` jobs are done. */
  async run(signal?: AbortSignal): Promise<void> {
    const registration = await this.client.register(this.options.name);
    this.log(`registered as ${registration['agent-id']} in pool ${registration['pool-id']}`);
    const pollMs = registration['poll-interval-seconds'] * 1000;
    let done = 0;
    let failures = 0;
    while (!signal?.aborted) {
      let job: Job | null;
      try {
        job = await this.client.claim();
        failures = 0;
      } catch (err) {
        failures++;
        this.log(`claim failed: ${(err as Error).message}`);
        await sleep(Math.min(pollMs * 2 ** failures, MAX_BACKOFF_MS), signal);
        continue;
      }
      if (!job) {
        await sleep(pollMs, signal);
        continue;
      }
      await this.runJob(job, registration);
      done++;
      if (this.options.maxJobs && done >= this.options.maxJobs) return;
    }
  }

  /** Runs one job in a fresh directory and reports how it ended; never throws for the job's own failures. */
  async runJob(job: Job, registration: Registration): Promise<JobReport> {
    this.log(
      `${job.kind} job ${job.id} of run ${job['run-id']} (${job.organization}/${job['workspace-name']})`,
    );
    const dir = await mkdtemp(join(this.options.workDir, 'plinth-job-'));
    const output = new JobOutput(this.client, job.links.logs);
    let report: JobReport;
    try {
      if (job.kind === 'policy-evaluation') {
        report = { status: 'finished', results: await this.evaluate(job, dir, registration) };
      } else {
        report = { status: 'finished', ...(await this.execute(job, dir, output, registration)) };
      }
    } catch (err) {
      const known = err instanceof JobFailure || err instanceof EvaluationError;
      const message = known ? err.message : `executor error: ${(err as Error).message}`;
      output.append(`\n${message}\n`);
      report = { status: 'errored', 'error-message': message };
    }
    try {
      await output.flush();
    } catch (err) {
      this.log(`could not upload the log of ${job.id}: ${(err as Error).message}`);
    }
    try {
      await this.client.finish(job.id, report);
      this.log(`${job.id} ${report.status}`);
    } catch (err) {
      this.log(`could not report ${job.id}: ${(err as Error).message}`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    return report;
  }

  private async execute(
    job: Job,
    dir: string,
    output: JobOutput,
    registration: Registration,
  ): Promise<ChangeCounts | Record<string, never>> {
    const workspace = join(dir, 'configuration');
    await mkdir(workspace);
    const archive = join(dir, 'configuration.tar.gz');
    await this.client.download(job.links.configuration, archive);
    await extract({ file: archive, cwd: workspace });
    const planFile = join(dir, 'plan.bin');
    const planJson = join(dir, 'plan.json');
    const env = {
      ...process.env,
      PLINTH_PLAN_FILE: planFile,
      PLINTH_PLAN_JSON: planJson,
      PLINTH_IS_DESTROY: String(job['is-destroy']),
      PLINTH_RUN_ID: job['run-id'],
      PLINTH_WORKSPACE_NAME: job['workspace-name'],
      PLINTH_ORGANIZATION: job.organization,
    };
    const heartbeatMs =
      (job['heartbeat-interval-seconds'] || registration['heartbeat-interval-seconds']) * 1000;
    const step = (name: 'plan' | 'show' | 'apply') =>
      this.step(job, this.options.commands[name], name, { cwd: workspace, env }, output, heartbeatMs);

    if (job.kind === 'apply') {
      if (!job.links['plan-file']) throw new JobFailure('the apply job carries no plan-file link');
      await this.client.download(job.links['plan-file'], planFile);
      await step('apply');
      return countApplyChanges(output.text) ?? {};
    }
    await step('plan');
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
    if (job.links['plan-json']) await this.client.upload(job.links['plan-json'], json);
    if (job.links['plan-file']) await this.client.upload(job.links['plan-file'], await readFile(planFile));
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
      download: (url, file) => this.client.download(url, file),
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
   * Runs one command, heartbeating (and uploading the log so far) while it runs. A heartbeat that
   * says the run was canceled stops the command.
   */
  private async step(
    job: Job,
    command: string,
    name: string,
    where: { cwd: string; env: NodeJS.ProcessEnv },
    output: JobOutput,
    heartbeatMs: number,
  ): Promise<void> {
    output.append(`$ ${name}: ${command}\n`);
    const result = await this.running(job, command, where, output, heartbeatMs);
    if (result.canceled) throw new JobFailure(`the run was canceled; ${name} was stopped`);
    if (result.code !== 0) {
      const how = result.code === null ? `signal ${result.signal}` : `exit code ${result.code}`;
      throw new JobFailure(`${name} failed (${how})`);
    }
  }

  /** One command with heartbeats; a heartbeat answering `canceled` stops it. */
  private async running(
    job: Job,
    command: string,
    where: { cwd: string; env: NodeJS.ProcessEnv },
    output: JobOutput,
    heartbeatMs: number,
  ): Promise<{ code: number | null; signal: NodeJS.Signals | null; canceled: boolean }> {
    const running = runCommand(command, {
      ...where,
      onOutput: (chunk) => output.append(chunk.toString('utf8')),
    });
    let canceled = false;
    let beating = false;
    const timer = setInterval(() => {
      if (beating) return;
      beating = true;
      void this.beat(job, output)
        .then((status) => {
          if (status === 'canceled' && !canceled) {
            canceled = true;
            running.stop();
          }
        })
        .finally(() => (beating = false));
    }, heartbeatMs);
    try {
      const result = await running.done;
      return { ...result, canceled };
    } finally {
      clearInterval(timer);
    }
  }

  /** One heartbeat, with the log so far; a failed one is logged and tried again at the next tick. */
  private async beat(job: Job, output: JobOutput): Promise<'running' | 'canceled'> {
    try {
      const status = await this.client.heartbeat(job.id);
      await output.flush();
      return status;
    } catch (err) {
      this.log(`heartbeat of ${job.id} failed: ${(err as Error).message}`);
      return 'running';
    }
  }
}

/**
 * The job's log: everything its commands printed. Each upload replaces the whole log so far.
 * Policy evaluations have no log link: their output goes with each policy's result.
 */
class JobOutput {
  private chunks: string[] = [];
  private uploaded = 0;

  constructor(
    private readonly client: ProtocolClient,
    private readonly url: string | undefined,
  ) {}

  append(text: string): void {
    this.chunks.push(text);
  }

  get text(): string {
    if (this.chunks.length > 1) this.chunks = [this.chunks.join('')];
    return this.chunks[0] ?? '';
  }

  async flush(): Promise<void> {
    const text = this.text;
    if (!this.url || text.length === this.uploaded) return;
    await this.client.upload(this.url, text);
    this.uploaded = text.length;
  }
}

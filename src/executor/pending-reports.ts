import { lstat, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { appendAll, UnsentLog } from './job-output';
import { Job, JobReport, ProtocolClient } from './protocol-client';
import { isRetryable } from './retry';

/**
 * A job's outcome on its way to Plinth. It is on disk before the first try and leaves once Plinth
 * took it (or refused it for good), so an executor that crashed or was stopped meanwhile sends it
 * again when it starts.
 */
export interface PendingReport {
  jobId: string;
  /** The agent that claimed the job: after a restart the executor registers as another. */
  agentId: string;
  poolId: string;
  report: JobReport;
  /** Epoch ms: past this Plinth has errored the job for silence, so the executor stops waiting. */
  deadline: number;
  /** The signed log link and the end of the log Plinth has not acknowledged, while there is one. */
  log?: UnsentLog;
  /**
   * The state an apply left (applied or not), while Plinth has not taken it: it describes real
   * infrastructure, so it goes up before the report and outlives a restart like the report.
   */
  state?: { url: string; content: Buffer };
}

/**
 * What became of one try: taken (or refused for good: nothing will change Plinth's mind), or not
 * yet. `next`: the job Plinth handed over with its answer (a report sent with `next`), to run next.
 */
export type Delivery = { done: true; refused?: string; next?: Job } | { done: false; error: unknown };

/** Job ids are Plinth's (`job-…`); anything else in the directory is not ours to read. */
const JOB_ID = /^job-[A-Za-z0-9_-]+$/;
const JOB_FILE = /^(job-[A-Za-z0-9_-]+)\.json$/;

/**
 * The executor's pending reports, one `<job>.json` (and `<job>.log`, the log's unsent end, while there
 * is one, `<job>.tfstate` while an apply's state is unsent) per job in its state directory. Files are
 * written whole and renamed into place, so a crash leaves
 * the old version or the new one, never half of one.
 */
export class PendingReports {
  constructor(
    private readonly dir: string,
    private readonly client: ProtocolClient,
  ) {}

  /** Puts the report on disk; done before it is first sent. */
  async keep(pending: PendingReport): Promise<void> {
    if (!JOB_ID.test(pending.jobId)) throw new Error(`unexpected job id ${JSON.stringify(pending.jobId)}`);
    await this.ensurePrivate(true);
    if (pending.log) await this.write(`${pending.jobId}.log`, pending.log.bytes);
    if (pending.state) await this.write(`${pending.jobId}.tfstate`, pending.state.content);
    await this.writeReport(pending);
  }

  private async writeReport(pending: PendingReport): Promise<void> {
    const { log, state, ...rest } = pending;
    await this.write(
      `${pending.jobId}.json`,
      JSON.stringify({ ...rest, 'log-url': log?.url, 'log-offset': log?.offset, 'state-url': state?.url }),
    );
  }

  /** The reports left by an earlier start of an executor of this pool, oldest job first. */
  async load(poolId: string): Promise<PendingReport[]> {
    if (!(await this.ensurePrivate(false))) return [];
    const names = await readdir(this.dir);
    const found: PendingReport[] = [];
    for (const name of names.sort()) {
      const jobId = JOB_FILE.exec(name)?.[1];
      if (!jobId) continue;
      const stored = await this.read(jobId);
      if (stored?.poolId === poolId) found.push(stored);
    }
    return found;
  }

  /**
   * One try: the log (when it has not gone up yet), then the report. A log Plinth refuses for good
   * (the job no longer takes files) does not hold back the report. With `next`, the report asks
   * Plinth for the agent's next job as well.
   */
  async deliver(pending: PendingReport, next = false): Promise<Delivery> {
    let handed: Job | null;
    try {
      if (pending.log) {
        try {
          await appendAll(this.client, pending.log.url, pending.log.offset, pending.log.bytes);
        } catch (err) {
          if (isRetryable(err)) throw err;
        }
        pending.log = undefined;
        // A stored report whose log file is gone is read back without a log.
        await this.remove(`${pending.jobId}.log`);
      }
      if (pending.state) await this.handOver(pending, pending.state);
      handed = await this.client.finish(pending.jobId, pending.report, pending.agentId, next);
    } catch (err) {
      if (isRetryable(err)) return { done: false, error: err };
      await this.forget(pending.jobId);
      return { done: true, refused: (err as Error).message };
    }
    await this.forget(pending.jobId);
    return handed ? { done: true, next: handed } : { done: true };
  }

  /**
   * Uploads the state an apply left; Plinth answers a repeat with the version it already made. A
   * state Plinth refuses for good (someone else holds the lock, another lineage, an older serial)
   * is kept on disk beside the reports, and the report becomes an error that says where it is:
   * the run must not look as if its state had been saved.
   */
  private async handOver(pending: PendingReport, state: { url: string; content: Buffer }): Promise<void> {
    try {
      await this.client.upload(state.url, state.content);
    } catch (err) {
      if (isRetryable(err)) throw err;
      const kept = join(this.dir, `${pending.jobId}.refused.tfstate`);
      await this.write(`${pending.jobId}.refused.tfstate`, state.content);
      const refused = `Plinth refused the state the apply left (${(err as Error).message}); it is kept at ${kept}`;
      pending.report = {
        status: 'errored',
        'error-message':
          pending.report.status === 'errored' ? `${pending.report['error-message']}; ${refused}` : refused,
      };
    }
    pending.state = undefined;
    // The report as it now is goes to disk before the state leaves it: a restart sends that one.
    await this.writeReport(pending);
    await this.remove(`${pending.jobId}.tfstate`);
  }

  /**
   * Whether the directory exists (made when `create`) and is this user's alone. A report found
   * there is sent with this executor's token, so nobody else may be able to put one there (the
   * default work directory is the shared temporary one).
   */
  private async ensurePrivate(create: boolean): Promise<boolean> {
    if (create) await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const stat = await lstat(this.dir).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    if (!stat) return false;
    const uid = process.getuid?.();
    if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o077) !== 0) {
      throw new Error(`${this.dir} must be a directory that only this user can use (mode 700)`);
    }
    return true;
  }

  private async forget(jobId: string): Promise<void> {
    await this.remove(`${jobId}.log`);
    await this.remove(`${jobId}.tfstate`);
    await this.remove(`${jobId}.json`);
  }

  /**
   * The disk copy is the fallback, never the reason a delivery fails: a file that cannot be
   * removed is sent again later, and Plinth answers a repeat with 204 or a 409.
   */
  private async remove(name: string): Promise<void> {
    await rm(join(this.dir, name), { force: true }).catch(() => undefined);
  }

  private async read(jobId: string): Promise<PendingReport | null> {
    let stored: Omit<PendingReport, 'log' | 'state'> & {
      'log-url'?: string;
      'log-offset'?: number;
      'state-url'?: string;
    };
    try {
      stored = JSON.parse(await readFile(join(this.dir, `${jobId}.json`), 'utf8')) as typeof stored;
    } catch {
      // Gone meanwhile (another executor sharing the directory sent it), or not one of ours.
      return null;
    }
    // A report kept by an older executor has the whole log and no offset: from byte 0, which
    // Plinth takes as well (it acknowledges what it already has).
    const { 'log-url': url, 'log-offset': offset, 'state-url': stateUrl, ...pending } = stored;
    const found: PendingReport = pending;
    if (url) {
      const bytes = await readFile(join(this.dir, `${jobId}.log`)).catch(() => undefined);
      if (bytes !== undefined) found.log = { url, offset: offset ?? 0, bytes };
    }
    if (stateUrl) {
      const content = await readFile(join(this.dir, `${jobId}.tfstate`)).catch(() => undefined);
      if (content !== undefined) found.state = { url: stateUrl, content };
    }
    return found;
  }

  private async write(name: string, content: string | Buffer): Promise<void> {
    const path = join(this.dir, name);
    const partial = `${path}.${process.pid}.partial`;
    await writeFile(partial, content, { mode: 0o600 });
    await rename(partial, path);
  }
}

/**
 * Bounded inspection of uploaded tar.gz archives, shared by every archive upload (policy set
 * versions, configuration versions, registry modules). Call `inspectArchive(source, options)`
 * after the upload is stored, with the stored blob as `source`:
 *
 *   const inspection = await inspectArchive(await blobs.get(key), {
 *     maxExpandedBytes, maxEntries, maxMillis,
 *     rule: (entries) => (entries.some(isWanted) ? null : 'the archive has no …'),
 *   });
 *
 * It resolves `{ ok: true, entries }` or `{ ok: false, reason }` (a sentence for the resource's
 * `error` attribute; past a cap it names the cap), and rejects only when reading `source` fails.
 * Every caller gets the same safety rules (valid gzip and tar, no absolute paths or `..`, only
 * files, directories and links, no link leading outside when resolved as tar extracts, nothing but
 * zeros after the end-of-archive marker and nothing after the gzip stream); `rule` adds the
 * caller's own, run on the entry list once the archive is known to be safe.
 *
 * The scan runs on worker threads (archive-inspector.worker.ts) so the event loop keeps serving
 * while an archive is read: a pool of at most one worker per core but one, reused between
 * archives. Past the time cap the caller is answered at once and the worker drops the archive
 * (terminated only if it does not within a grace period); past the memory cap it is gone.
 */
import { availableParallelism } from 'node:os';
import { extname, join } from 'node:path';
import { Readable } from 'node:stream';
import { ResourceLimits, Worker } from 'node:worker_threads';
import { ScanResult } from './archive-scan';
import type { FromWorker, ToWorker } from './archive-inspector.worker';
import { ArchiveEntry } from './tar-scanner';

export type { ArchiveEntry, ArchiveEntryType } from './tar-scanner';

export interface ArchiveInspectionOptions {
  /** Bytes the archive may expand to, counted while it is read (gzip bombs stop here). */
  maxExpandedBytes: number;
  /** Tar headers the archive may hold, extended headers included. */
  maxEntries: number;
  /** Milliseconds the whole inspection may take, from the moment a worker takes it. */
  maxMillis: number;
  /** The caller's own rule on a safe archive's entries: why it is refused, or null. */
  rule?: (entries: readonly ArchiveEntry[]) => string | null;
}

export type ArchiveInspection = { ok: true; entries: ArchiveEntry[] } | { ok: false; reason: string };

/** Heap a worker may use; a link tree or header bigger than this is a refusal, not a crash. */
const WORKER_HEAP_MB = 256;
/** Compressed chunks in flight to a worker before the source is paused. */
const IN_FLIGHT = 4;
/** How long a worker has to drop an archive past the time cap before it is terminated. */
const CANCEL_GRACE_MS = 10_000;

const workerLimits: ResourceLimits = { maxOldGenerationSizeMb: WORKER_HEAP_MB };

/**
 * Under ts-jest and ts-node this file is TypeScript, and so is the worker: the worker then loads
 * ts-node (a dev dependency) to read it. The compiled build runs the worker's .js directly.
 */
function spawnWorker(): Worker {
  const extension = extname(__filename);
  const file = join(__dirname, `archive-inspector.worker${extension}`);
  const execArgv =
    extension === '.ts' ? ['--require', require.resolve('ts-node/register/transpile-only')] : [];
  return new Worker(file, { execArgv, resourceLimits: workerLimits });
}

class WorkerPool {
  private readonly idle: Worker[] = [];
  private readonly waiting: ((worker: Worker) => void)[] = [];
  private busy = 0;

  constructor(private readonly size: number) {}

  acquire(): Promise<Worker> {
    const worker = this.idle.pop();
    if (worker) return Promise.resolve(this.take(worker));
    if (this.busy < this.size) return Promise.resolve(this.take(spawnWorker()));
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Back to the pool after a clean result; `broken` workers are terminated instead. */
  release(worker: Worker, broken: boolean): void {
    worker.removeAllListeners('message');
    worker.removeAllListeners('error');
    worker.removeAllListeners('exit');
    this.busy -= 1;
    if (broken) void worker.terminate();
    const next = this.waiting.shift();
    if (next) next(this.take(broken ? spawnWorker() : worker));
    else if (!broken) {
      // An idle worker must not keep the process alive.
      worker.unref();
      this.idle.push(worker);
    }
  }

  private take(worker: Worker): Worker {
    this.busy += 1;
    worker.ref();
    return worker;
  }
}

const pool = new WorkerPool(Math.max(1, availableParallelism() - 1));
let jobs = 0;

/** Reads `source` through a pooled worker under the caps; see the file header. */
export async function inspectArchive(
  source: Readable,
  options: ArchiveInspectionOptions,
): Promise<ArchiveInspection> {
  const worker = await pool.acquire();
  const job = ++jobs;
  const scanned = await new Promise<ScanResult>((resolve, reject) => {
    let inFlight = 0;
    let settled = false;
    let released = false;
    let cancelling: NodeJS.Timeout | undefined;
    /** Answers the caller once; the worker's return to the pool is separate (see `cancel`). */
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      source.removeListener('data', onData);
      source.destroy();
      outcome();
    };
    const release = (broken: boolean) => {
      if (released) return;
      released = true;
      clearTimeout(cancelling);
      pool.release(worker, broken);
    };
    const send = (message: ToWorker, transfer?: ArrayBuffer[]) => worker.postMessage(message, transfer);
    // The worker is asked to drop the archive rather than terminated: a termination that lands while
    // the worker builds its gunzip aborts the whole process (Node.js 20's zlib cleanup asserts on a
    // stream it never initialised). Only a worker that does not answer within the grace period is.
    const cancel = () => {
      send({ kind: 'cancel', job });
      cancelling = setTimeout(() => release(true), CANCEL_GRACE_MS);
    };
    const timer = setTimeout(() => {
      const reason = `inspecting the archive took longer than ${options.maxMillis} ms (the inspection time cap)`;
      settle(() => resolve({ ok: false, reason }));
      cancel();
    }, options.maxMillis);
    const onData = (chunk: Buffer) => {
      // A copy of its own, so the transfer never detaches memory the source still uses.
      const data = new Uint8Array(chunk);
      send({ kind: 'chunk', job, data }, [data.buffer]);
      if (++inFlight >= IN_FLIGHT) source.pause();
    };
    worker.on('message', (message: FromWorker) => {
      if (message.job !== job) return;
      if (message.kind === 'ack') {
        if (--inFlight < IN_FLIGHT && source.isPaused()) source.resume();
        return;
      }
      if (message.kind === 'result') settle(() => resolve(message.result));
      release(false);
    });
    worker.on('error', (err: Error & { code?: string }) => {
      const reason = `inspecting the archive needed more than ${WORKER_HEAP_MB} MiB of memory`;
      const outOfMemory = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
      settle(() => (outOfMemory ? resolve({ ok: false, reason }) : reject(err)));
      release(true);
    });
    worker.on('exit', (code) => {
      settle(() => reject(new Error(`archive inspection worker exited (${code})`)));
      release(true);
    });
    source.on('error', (err) => {
      settle(() => reject(err));
      cancel();
    });
    source.on('end', () => {
      if (!settled) send({ kind: 'end', job });
    });
    send({
      kind: 'start',
      job,
      limits: { maxExpandedBytes: options.maxExpandedBytes, maxEntries: options.maxEntries },
    });
    source.on('data', onData);
  });
  if (!scanned.ok) return scanned;
  const problem = options.rule?.(scanned.entries) ?? null;
  return problem ? { ok: false, reason: problem } : { ok: true, entries: scanned.entries };
}

/**
 * Bounded inspection of uploaded tar.gz archives, shared by every archive upload (policy set
 * versions, configuration versions, registry modules). Inject ArchiveInspector and call
 * `inspect(open, options)` after the upload is stored, with `open` opening the stored blob:
 *
 *   const inspection = await inspector.inspect(() => blobs.get(key), {
 *     owner: organizationId, maxExpandedBytes, maxEntries, maxMillis,
 *     rule: (entries) => (entries.some(isWanted) ? null : 'the archive has no …'),
 *   });
 *
 * It resolves `{ ok: true, entries }` or `{ ok: false, reason }` (a sentence for the resource's
 * `error` attribute; past a cap it names the cap), rejects with InspectionsBusy (429 or 503, with
 * `Retry-After`) when the owner or the server has too many inspections under way, and rejects
 * otherwise only when reading the blob fails. Every caller gets the same safety rules (valid gzip
 * and tar, no absolute paths or `..`, only files, directories and links, no link leading outside
 * when resolved as tar extracts, names and link targets read as extractors read them, nothing but
 * zeros after the end-of-archive marker and nothing after the gzip stream); `rule` adds the
 * caller's own, run on the entry list once the archive is known to be safe.
 *
 * The scan runs on worker threads (archive-inspector.worker.ts) so the event loop keeps serving
 * while an archive is read: a pool of ARCHIVE_INSPECTION_WORKERS workers, reused between
 * archives, handed out by InspectionQueue (per-organization admission, fair turns between
 * organizations). The time cap counts from the call: waiting for a worker, opening the blob and
 * reading it. Past it the caller is answered at once and the worker drops the archive (terminated
 * only if it does not within a grace period); past the memory cap it is gone.
 */
import { extname, join } from 'node:path';
import { Readable } from 'node:stream';
import { ResourceLimits, Worker } from 'node:worker_threads';
import { ScanResult } from './archive-scan';
import type { FromWorker, ToWorker } from './archive-inspector.worker';
import { InspectionQueue, InspectionQueueLimits, QueueTicket } from './inspection-queue';
import { ArchiveEntry } from './tar-scanner';

export type { ArchiveEntry, ArchiveEntryType } from './tar-scanner';
export { InspectionsBusy } from './inspection-queue';

export interface ArchiveInspectionOptions {
  /** Whose upload it is (an organization id): admission and turns are counted per owner. */
  owner: string;
  /** Bytes the archive may expand to, counted while it is read (gzip bombs stop here). */
  maxExpandedBytes: number;
  /**
   * Tar headers the archive may hold, extended headers included; resolving paths through links
   * is paid for out of it too (STEPS_PER_ENTRY steps of resolution per entry).
   */
  maxEntries: number;
  /** Milliseconds the whole inspection may take, waiting for a worker included. */
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

/** Workers reused between archives; InspectionQueue decides how many are out at once. */
class WorkerPool {
  private readonly idle: Worker[] = [];
  private closed = false;

  acquire(): Worker {
    const worker = this.idle.pop() ?? spawnWorker();
    worker.ref();
    return worker;
  }

  /** Back to the pool after a clean result; `broken` workers are terminated instead. */
  release(worker: Worker, broken: boolean): void {
    worker.removeAllListeners('message');
    worker.removeAllListeners('error');
    worker.removeAllListeners('exit');
    if (broken || this.closed) {
      void worker.terminate();
      return;
    }
    // An idle worker must not keep the process alive.
    worker.unref();
    this.idle.push(worker);
  }

  /** Terminates the idle workers (an idle worker has no gunzip to be caught building). */
  close(): void {
    this.closed = true;
    for (const worker of this.idle.splice(0)) void worker.terminate();
  }
}

/** Inspects archives on a pool of worker threads; one per application (see the file header). */
export class ArchiveInspector {
  private readonly pool = new WorkerPool();
  private readonly queue: InspectionQueue;
  private jobs = 0;

  constructor(limits: Omit<InspectionQueueLimits, 'running'> & { workers: number }) {
    this.queue = new InspectionQueue({ ...limits, running: limits.workers });
  }

  /** Reads the blob `open` opens on a pooled worker under the caps; see the file header. */
  async inspect(
    open: () => Promise<Readable>,
    options: ArchiveInspectionOptions,
  ): Promise<ArchiveInspection> {
    const ticket = this.queue.enter(options.owner);
    const scanned = await this.scan(ticket, open, options);
    if (!scanned.ok) return scanned;
    const problem = options.rule?.(scanned.entries) ?? null;
    return problem ? { ok: false, reason: problem } : { ok: true, entries: scanned.entries };
  }

  /** The application stops: its idle workers go (a busy one goes once its archive is done). */
  onModuleDestroy(): void {
    this.pool.close();
  }

  private scan(ticket: QueueTicket, open: () => Promise<Readable>, options: ArchiveInspectionOptions) {
    return new Promise<ScanResult>((resolve, reject) => {
      const job = ++this.jobs;
      let source: Readable | undefined;
      let worker: Worker | undefined;
      let inFlight = 0;
      let settled = false;
      let released = false;
      let cancelling: NodeJS.Timeout | undefined;
      /** Answers the caller once; the worker's return to the pool is separate (see `cancel`). */
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        source?.removeListener('data', onData);
        source?.destroy();
        outcome();
      };
      /** Gives the place in the queue back: with the worker, or before there was one. */
      const release = (broken: boolean) => {
        if (released) return;
        released = true;
        clearTimeout(cancelling);
        if (worker) this.pool.release(worker, broken);
        ticket.leave();
      };
      const send = (message: ToWorker, transfer?: ArrayBuffer[]) => worker?.postMessage(message, transfer);
      // The worker is asked to drop the archive rather than terminated: a termination that lands while
      // the worker builds its gunzip aborts the whole process (Node.js 20's zlib cleanup asserts on a
      // stream it never initialised). Only a worker that does not answer within the grace period is.
      const cancel = () => {
        if (!worker) return release(false);
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
        if (++inFlight >= IN_FLIGHT) source?.pause();
      };
      const run = (opened: Readable) => {
        source = opened;
        const taken = this.pool.acquire();
        worker = taken;
        taken.on('message', (message: FromWorker) => {
          if (message.job !== job) return;
          if (message.kind === 'ack') {
            if (--inFlight < IN_FLIGHT && opened.isPaused()) opened.resume();
            return;
          }
          if (message.kind === 'result') settle(() => resolve(message.result));
          release(false);
        });
        taken.on('error', (err: Error & { code?: string }) => {
          const reason = `inspecting the archive needed more than ${WORKER_HEAP_MB} MiB of memory`;
          const outOfMemory = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
          settle(() => (outOfMemory ? resolve({ ok: false, reason }) : reject(err)));
          release(true);
        });
        taken.on('exit', (code) => {
          settle(() => reject(new Error(`archive inspection worker exited (${code})`)));
          release(true);
        });
        opened.on('error', (err) => {
          settle(() => reject(err));
          cancel();
        });
        opened.on('end', () => {
          if (!settled) send({ kind: 'end', job });
        });
        send({
          kind: 'start',
          job,
          limits: { maxExpandedBytes: options.maxExpandedBytes, maxEntries: options.maxEntries },
        });
        opened.on('data', onData);
      };
      // Past the time cap while waiting, the place is already given back and the turn never comes.
      void ticket.turn.then(async () => {
        let opened: Readable;
        try {
          opened = await open();
        } catch (err) {
          settle(() => reject(err instanceof Error ? err : new Error(String(err))));
          return release(false);
        }
        if (!settled) return run(opened);
        // Answered already (the time cap): the caller may be deleting the blob this stream still opens.
        opened.on('error', () => undefined);
        opened.destroy();
      });
    });
  }
}

import { parentPort } from 'node:worker_threads';
import { ArchiveScan, ScanLimits, ScanResult } from './archive-scan';

/**
 * What the inspector sends: one `start`, its chunks, one `end`; then the next archive's `start`.
 * A `cancel` (past the time cap, or when the source fails) drops the archive wherever it is.
 */
export type ToWorker =
  | { kind: 'start'; job: number; limits: ScanLimits }
  | { kind: 'chunk'; job: number; data: Uint8Array }
  | { kind: 'end'; job: number }
  | { kind: 'cancel'; job: number };

/** What the worker answers: an `ack` per chunk taken, one `result` per archive, `cancelled` per cancel. */
export type FromWorker =
  | { kind: 'ack'; job: number }
  | { kind: 'result'; job: number; result: ScanResult }
  | { kind: 'cancelled'; job: number };

const port = parentPort;
if (!port) throw new Error('archive-inspector.worker runs only as a worker thread');

let current: { job: number; scan: ArchiveScan } | null = null;

port.on('message', (message: ToWorker) => {
  if (message.kind === 'start') {
    const job = message.job;
    current = {
      job,
      scan: new ArchiveScan(message.limits, (result) =>
        port.postMessage({ kind: 'result', job, result } satisfies FromWorker),
      ),
    };
    return;
  }
  if (message.kind === 'cancel') {
    if (current?.job === message.job) {
      current.scan.cancel();
      current = null;
    }
    port.postMessage({ kind: 'cancelled', job: message.job } satisfies FromWorker);
    return;
  }
  // Chunks of an archive whose result was already sent are dropped.
  if (current?.job !== message.job) return;
  if (message.kind === 'chunk') {
    const data = message.data;
    current.scan.write(Buffer.from(data.buffer, data.byteOffset, data.byteLength), () =>
      port.postMessage({ kind: 'ack', job: message.job } satisfies FromWorker),
    );
  } else {
    current.scan.end();
  }
});

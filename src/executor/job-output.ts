import { ProtocolClient } from './protocol-client';
import { isRetryable } from './retry';

/** How soon output goes up after it was printed. */
export const LOG_FLUSH_MS = 250;
/** The wait after an append that got no answer (Plinth away) before the next try. */
const LOG_RETRY_MS = 2_000;
/** The most bytes one append carries; a longer backlog goes up in several. */
export const LOG_CHUNK_BYTES = 256 * 1024;

/** The part of a job's log Plinth has not acknowledged: where it starts, and its bytes. */
export interface UnsentLog {
  url: string;
  offset: number;
  bytes: Buffer;
}

/** Appends `bytes` at `offset`, in pieces of at most LOG_CHUNK_BYTES; resolves once all are taken. */
export async function appendAll(
  client: ProtocolClient,
  url: string,
  offset: number,
  bytes: Buffer,
): Promise<void> {
  for (let i = 0; i < bytes.length; i += LOG_CHUNK_BYTES) {
    await client.appendLog(url, offset + i, bytes.subarray(i, i + LOG_CHUNK_BYTES));
  }
}

/**
 * The job's log: every byte its commands printed, as printed (a character split between two reads
 * stays split: the bytes go up as they are). New output goes up within LOG_FLUSH_MS, appended at
 * the byte offset Plinth has so far, one request at a time; Plinth acknowledges bytes it already
 * has, so a request whose answer was lost is simply sent again. Policy evaluations have no log
 * link: their output goes with each policy's result.
 */
export class JobOutput {
  private chunks: Buffer[] = [];
  private total = 0;
  /** Bytes Plinth has acknowledged. */
  private sent = 0;
  /** The bytes from `sent` on, as printed: a send copies at most one piece, never the whole log. */
  private unacknowledged: Buffer[] = [];
  private timer?: NodeJS.Timeout;
  private sending?: Promise<void>;
  /** Plinth refused an append for good (the job ended): nothing more is sent while it runs. */
  private refused = false;
  private closed = false;
  /** Set after an append that got no answer: the wait before the next. */
  private retryIn?: number;

  constructor(
    private readonly client: ProtocolClient,
    private readonly url: string | undefined,
    private readonly log: (message: string) => void = () => undefined,
  ) {}

  append(data: Buffer | string): void {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    if (!bytes.length) return;
    this.chunks.push(bytes);
    if (this.url) this.unacknowledged.push(bytes);
    this.total += bytes.length;
    this.schedule(LOG_FLUSH_MS);
  }

  get bytes(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0] ?? Buffer.alloc(0);
  }

  get text(): string {
    return this.bytes.toString('utf8');
  }

  /** What Plinth has not acknowledged yet, once the job's commands are done; undefined when nothing. */
  unsent(): UnsentLog | undefined {
    if (!this.url || this.sent >= this.total) return undefined;
    return { url: this.url, offset: this.sent, bytes: Buffer.concat(this.unacknowledged) };
  }

  /** Stops sending while the job runs; waits for an append under way. The rest goes with the report. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.sending;
  }

  private schedule(ms: number): void {
    if (!this.url || this.refused || this.closed || this.timer || this.sending) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.sending = this.flush().finally(() => {
        this.sending = undefined;
        // A backlog of more than one piece goes up piece after piece; new output waits a moment.
        const next = this.total - this.sent >= LOG_CHUNK_BYTES ? 0 : LOG_FLUSH_MS;
        if (this.sent < this.total) this.schedule(this.retryIn ?? next);
      });
    }, ms);
  }

  /** The first LOG_CHUNK_BYTES (at most) of what Plinth has not acknowledged. */
  private nextPiece(): Buffer {
    const parts: Buffer[] = [];
    let length = 0;
    for (const chunk of this.unacknowledged) {
      if (length >= LOG_CHUNK_BYTES) break;
      parts.push(chunk.subarray(0, LOG_CHUNK_BYTES - length));
      length += parts[parts.length - 1].length;
    }
    return Buffer.concat(parts);
  }

  private acknowledge(bytes: number): void {
    this.sent += bytes;
    while (bytes > 0) {
      const first = this.unacknowledged[0];
      if (first.length > bytes) {
        this.unacknowledged[0] = first.subarray(bytes);
        return;
      }
      this.unacknowledged.shift();
      bytes -= first.length;
    }
  }

  /** One append of what is new (at most LOG_CHUNK_BYTES of it). */
  private async flush(): Promise<void> {
    const url = this.url;
    if (!url || this.sent >= this.total) return;
    const from = this.sent;
    const piece = this.nextPiece();
    try {
      await this.client.appendLog(url, from, piece);
      this.acknowledge(piece.length);
      this.retryIn = undefined;
    } catch (err) {
      if (isRetryable(err)) {
        this.retryIn = LOG_RETRY_MS;
      } else {
        this.refused = true;
      }
      this.log(`could not send the log: ${(err as Error).message}`);
    }
  }
}

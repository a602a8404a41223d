/**
 * The read loop of the official Go client's log reader (`Plans.Logs`, `Applies.Logs`), step for
 * step, so tests hold the server to what that client does:
 *
 * - each read asks `?limit=<buffer size>&offset=<bytes consumed>` (the query string replaced), with
 *   no Authorization, and takes what one read of the body gives, at most `limit` bytes;
 * - a first byte 0x02 (STX) not seen before is dropped and counted in the offset; a read that
 *   carried only it makes no progress;
 * - once STX was seen, a last byte 0x03 (ETX) is dropped and counted;
 * - a read with no data waits 500 ms * 2^(n/5), at most 2 s, and reads again; it asks whether the
 *   phase is done when STX and ETX were both seen, every tenth empty read when only STX was, and
 *   from the second empty read when no STX ever came; done means the end of the log;
 * - any answer that is not 2xx ends the read with an error.
 */
export class LogReader {
  offset = 0;
  startOfText = false;
  endOfText = false;
  /** Requests sent, and answers that were longer than the limit asked for (a server bug). */
  requests = 0;
  oversized = 0;
  statusChecks = 0;
  /** Like the Go reader's field: set by the retry loop, read (possibly stale) by the next read. */
  private reads = 0;

  constructor(
    private readonly url: string,
    private readonly done: () => Promise<boolean>,
    private readonly options: {
      /** How many of the body's bytes one read of it gives (a short read); all by default. */
      shortRead?: (available: number) => number;
      /** Called after each read that gave data. */
      onData?: (data: Buffer) => void | Promise<void>;
    } = {},
  ) {}

  /** Reads to the end of the log with a buffer of `limit` bytes; the log without its markers. */
  async readAll(limit: number): Promise<Buffer> {
    const parts: Buffer[] = [];
    for (;;) {
      const data = await this.read(limit);
      if (data === null) return Buffer.concat(parts);
      parts.push(data);
      await this.options.onData?.(data);
    }
  }

  /** One Read of the Go reader: data, or null at the end of the log. */
  async read(limit: number): Promise<Buffer | null> {
    const first = await this.readOnce(limit);
    if (first !== 'no-progress') return first;
    for (this.reads = 1; ; this.reads++) {
      await new Promise((resolve) => setTimeout(resolve, backoffMs(500, 2000, this.reads)));
      const next = await this.readOnce(limit);
      if (next !== 'no-progress') return next;
    }
  }

  private async readOnce(limit: number): Promise<Buffer | null | 'no-progress'> {
    const url = new URL(this.url);
    url.search = `limit=${limit}&offset=${this.offset}`;
    this.requests++;
    const res = await fetch(url);
    const body = Buffer.from(await res.arrayBuffer());
    if (res.status < 200 || res.status > 299) {
      throw new Error(`GET log answered ${res.status}: ${body.toString('utf8').slice(0, 300)}`);
    }
    if (body.length > limit) this.oversized++;
    const available = Math.min(limit, body.length);
    let data = Buffer.from(
      body.subarray(0, this.options.shortRead ? this.options.shortRead(available) : available),
    );
    if (data.length > 0) {
      if (!this.startOfText && data[0] === 0x02) {
        this.startOfText = true;
        data = data.subarray(1);
        this.offset++;
        if (data.length === 0) return 'no-progress';
      }
      if (this.startOfText && data[data.length - 1] === 0x03) {
        this.endOfText = true;
        data = data.subarray(0, data.length - 1);
        this.offset++;
      }
    }
    if (data.length !== 0) {
      this.offset += data.length;
      return data;
    }
    if (
      (this.startOfText && this.endOfText) ||
      (this.startOfText && this.reads % 10 === 0) ||
      (!this.startOfText && this.reads > 1)
    ) {
      this.statusChecks++;
      if (await this.done()) return null;
    }
    return 'no-progress';
  }
}

function backoffMs(minimum: number, maximum: number, iteration: number): number {
  return Math.min(maximum, 2 ** (iteration / 5) * minimum);
}

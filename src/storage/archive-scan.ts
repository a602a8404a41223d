import { createGunzip, Gunzip } from 'node:zlib';
import { ArchiveEntry, TarScanner } from './tar-scanner';

export interface ScanLimits {
  maxExpandedBytes: number;
  maxEntries: number;
}

export type ScanResult =
  { ok: true; entries: ArchiveEntry[]; expandedBytes: number } | { ok: false; reason: string };

/**
 * One tar.gz stream being scanned: compressed chunks in, one result out. The expanded bytes are
 * counted as they leave gunzip, so the cap stops a bomb after `maxExpandedBytes` of work whatever it
 * would expand to. Runs inside the inspection worker (archive-inspector.worker.ts).
 */
export class ArchiveScan {
  private readonly gunzip: Gunzip = createGunzip({ chunkSize: 64 * 1024 });
  private readonly scanner: TarScanner;
  private compressedBytes = 0;
  private expandedBytes = 0;
  private done = false;

  constructor(
    private readonly limits: ScanLimits,
    private readonly report: (result: ScanResult) => void,
  ) {
    this.scanner = new TarScanner(limits.maxEntries);
    this.gunzip.on('data', (chunk: Buffer) => this.expanded(chunk));
    this.gunzip.on('error', (err) =>
      this.finish({ ok: false, reason: `the upload is not a valid gzip stream (${err.message})` }),
    );
    this.gunzip.on('end', () => this.ended());
  }

  /** Feeds compressed bytes; `consumed` runs once gunzip has taken them (the sender's backpressure). */
  write(chunk: Buffer, consumed: () => void): void {
    if (this.done) return consumed();
    this.compressedBytes += chunk.length;
    this.gunzip.write(chunk, () => consumed());
  }

  end(): void {
    if (!this.done) this.gunzip.end();
  }

  /** Drops the archive without a result (the inspector already answered its caller). */
  cancel(): void {
    this.finish(null);
  }

  private expanded(chunk: Buffer): void {
    if (this.done) return;
    this.expandedBytes += chunk.length;
    if (this.expandedBytes > this.limits.maxExpandedBytes) {
      return this.finish({
        ok: false,
        reason: `the archive expands to more than ${this.limits.maxExpandedBytes} bytes (the expanded-size cap)`,
      });
    }
    const problem = this.scanner.write(chunk);
    if (problem) this.finish({ ok: false, reason: problem });
  }

  private ended(): void {
    // gunzip reads concatenated members as one stream but drops what follows the last one unread.
    if (this.gunzip.bytesWritten < this.compressedBytes) {
      return this.finish({ ok: false, reason: 'the upload has data after the end of its gzip stream' });
    }
    const problem = this.scanner.end();
    this.finish(
      problem
        ? { ok: false, reason: problem }
        : { ok: true, entries: this.scanner.entries, expandedBytes: this.expandedBytes },
    );
  }

  private finish(result: ScanResult | null): void {
    if (this.done) return;
    this.done = true;
    this.gunzip.removeAllListeners('data');
    this.gunzip.on('error', () => undefined);
    this.gunzip.destroy();
    if (result) this.report(result);
  }
}

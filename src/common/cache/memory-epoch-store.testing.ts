import { Advance, EpochRead, EpochStore } from './change-epoch';

/**
 * The counters and stamps of SqlEpochStore, in memory, for unit specs: advances apply at once;
 * reads answer at once unless `holdReads` is set, then they wait until `answer()`.
 */
export class MemoryEpochStore implements EpochStore {
  all = 0;
  access = 0;
  tracked = 0;
  readonly stamps = new Map<string, number>();
  readonly advances: Advance[] = [];
  reads = 0;
  holdReads = false;
  private readonly held: { after: number; resolve: (r: EpochRead) => void; reject: (e: Error) => void }[] =
    [];

  read(after: number): Promise<EpochRead> {
    this.reads++;
    if (!this.holdReads) return Promise.resolve(this.snapshot(after));
    return new Promise((resolve, reject) => this.held.push({ after, resolve, reject }));
  }

  advance(what: Advance): Promise<void> {
    this.advances.push({ ...what, tables: [...what.tables] });
    this.all++;
    if (what.access) this.access++;
    if (!what.everything) {
      this.tracked++;
      for (const t of what.tables) this.stamps.set(t, this.all);
    }
    return Promise.resolve();
  }

  /** Another process's write: what its advance leaves in the store. */
  changedElsewhere(...tables: string[]): void {
    void this.advance({ tables, access: false, everything: false });
    this.advances.pop();
  }

  get pendingReads(): number {
    return this.held.length;
  }

  /** Answers the oldest held read with what the store holds now (or fails it). */
  async answer(error?: Error): Promise<void> {
    const read = this.held.shift()!;
    if (error) read.reject(error);
    else read.resolve(this.snapshot(read.after));
    await new Promise((r) => setImmediate(r));
  }

  snapshot(after: number): EpochRead {
    const tables = [...this.stamps].filter(([, stamp]) => stamp > after);
    return { all: this.all, access: this.access, tracked: this.tracked, tables };
  }
}

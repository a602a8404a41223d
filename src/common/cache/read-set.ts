import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The tables one computation read: what a remembered answer (or memo entry) depends on. Filled
 * where the queries run (persistence/statement-tracking.ts), never declared by hand. `unknown`
 * means the computation used something whose tables are not known (a memo entry loaded outside
 * any tracked computation): such an answer depends on every table.
 */
export class ReadSet {
  readonly tables = new Set<string>();
  unknown = false;
  /**
   * The computation also read the clock: its answer stands until this time (epoch ms, on the
   * Clock) at most, without any write (see `answerStandsUntil`).
   */
  until: number | undefined;
  /** Closed once its answer is kept: late callbacks of the computation add nothing to it. */
  private open = true;

  add(tables: readonly string[]): void {
    if (!this.open) return;
    for (const t of tables) this.tables.add(t);
  }

  /** Adds what another computation read (a memo entry this one used); null: not known. */
  absorb(other: ReadSet | null): void {
    if (!this.open) return;
    if (!other) {
      this.unknown = true;
      return;
    }
    if (other.unknown) this.unknown = true;
    if (other.until !== undefined) this.standUntil(other.until);
    for (const t of other.tables) this.tables.add(t);
  }

  standUntil(at: number): void {
    if (this.open && (this.until === undefined || at < this.until)) this.until = at;
  }

  close(): void {
    this.open = false;
  }
}

const current = new AsyncLocalStorage<ReadSet | undefined>();

/**
 * Runs `work` noting into `reads` every table its queries read, through every await. Only GET
 * answers the response cache may keep (and memo entries they load) are tracked.
 */
export function trackReads<T>(reads: ReadSet, work: () => T): T {
  return current.run(reads, work);
}

let holders = 0;

/**
 * Marks a tracked computation in flight until the returned function is called. On Node 20 an
 * enabled AsyncLocalStorage makes every promise of the process dearer (answers given from memory
 * included), so the storage is switched off whenever no tracked computation is in flight: in the
 * steady state of a read-mostly installation, where nearly every read is a hit, it is off.
 */
export function holdTracking(): () => void {
  holders++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--holders === 0) current.disable();
  };
}

/** The read set of the computation the caller belongs to, if it is tracked. */
export function currentReadSet(): ReadSet | undefined {
  return current.getStore();
}

/**
 * For an answer computed from the clock as well as from rows (a run's `is-force-cancelable`, an
 * agent's `status`): what is being computed changes by itself at `at`, so a remembered copy must
 * not outlive it. Free outside a tracked computation.
 */
export function answerStandsUntil(at: Date): void {
  current.getStore()?.standUntil(at.getTime());
}

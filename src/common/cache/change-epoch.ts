import { Logger } from '@nestjs/common';
import { AsyncResource } from 'node:async_hooks';
import { requestContext } from '../request-context';
import type { ReadSet } from './read-set';
import type { EpochLease } from './epoch-lease';

/**
 * `changes`: what changed in the data (tables, see EpochView); `access`: writes that may change
 * what a token stands for or what a principal may do (tokens, users, teams, memberships,
 * organizations), which is all the AuthCache remembers.
 */
export type EpochScope = 'changes' | 'access';

/** What one read of the shared counters found (see EpochStore). */
export interface EpochRead {
  /** Every advance, tracked or not: the stamp the last one gave. */
  all: number;
  access: number;
  /** Advances that named their tables; `all - tracked` counts those that did not. */
  tracked: number;
  /** Tables stamped after the `after` the read was asked for, with their stamps. */
  tables: [string, number][];
}

/** What to advance: the tables written since the last advance, and the two special cases. */
export interface Advance {
  tables: readonly string[];
  /** Tokens or rights may have changed. */
  access: boolean;
  /** Something whose tables are not known was written: every remembered answer ends. */
  everything: boolean;
}

/** Where the counters are kept (common/cache/sql-epoch-store.ts); tests use their own. */
export interface EpochStore {
  /** The counters, and the tables stamped after `after`, as one consistent snapshot. */
  read(after: number): Promise<EpochRead>;
  advance(what: Advance): Promise<void>;
  /** Lets go of what the store holds open (a connection of its own); after the last advance. */
  close?(): Promise<void>;
}

/**
 * What a process knows of the installation's changes at one moment. Never changed: a newer
 * knowledge is a new view, so a computation keeps the view it started under and compares.
 */
export interface EpochView {
  readonly all: number;
  readonly access: number;
  /**
   * This process's own writes that may change access, counted as they are answered: they end what
   * it made for a principal at once, also while it is alone and reads no counter (EpochLease).
   */
  readonly accessHere: number;
  /** Advances whose tables are not known (older processes, `everything`). */
  readonly untracked: number;
  /** Each table's last stamp; absent: not changed since the counters were created. */
  readonly tables: ReadonlyMap<string, number>;
}

const UNKNOWN: EpochView = { all: -1, access: -1, accessHere: 0, untracked: -1, tables: new Map() };

const ALONE = Promise.resolve();

/** Background writes (timers, sweepers) are announced this soon after their statement ends. */
const AUTO_FLUSH_MS = 20;

/**
 * Makes the per-process caches exact across processes and nodes, and lets a write end only the
 * remembered answers that read what it wrote.
 *
 * Every statement that writes is noted with the tables it touched (persistence/statement-tracking:
 * the statement's target and every table a foreign key cascades to), at its end or, inside a
 * transaction, again at the commit. A write request, before its answer leaves, waits for an
 * advance that covers everything this process wrote until then (`flush`, ChangeEpochGuard); an
 * advance stamps the written tables with a new number in one transaction with the counter that
 * orders all advances, so the stamps become visible in order. Every request that reads through a
 * cache first reads the counters with a query that starts after the request arrived (`sync`), and
 * learns the tables stamped since its last read. A remembered answer keeps the view its
 * computation started under and the tables it read; it counts while none of those tables has a
 * newer stamp, no untracked advance happened and, for anything made for a principal, the access
 * counter stands. So once a write has been answered, no request that arrives afterwards, on any
 * process, is served from anything computed before that write and that read what it wrote.
 *
 * Reads are shared: a request that arrives while a read is in flight waits for the next one, which
 * starts when the current one ends. Advances are shared as well: one advance carries what every
 * request of the process wrote since the previous one.
 */
export class ChangeEpoch {
  private view: EpochView = UNKNOWN;
  /** Stamps up to here are known (the `all` of the last read, a consistent snapshot). */
  private mark = -1;
  private inFlight: Promise<void> | null = null;
  /** When the latest read of the counters that came back started (epoch ms). */
  private lastReadStart = -Infinity;
  private next: Promise<void> | null = null;

  /** Counts the writes this process noted; each table's last one, and the last of unknown tables. */
  private writesHere = 0;
  private readonly writtenHere = new Map<string, number>();
  private unknownWrittenHere = 0;

  private dirty = new Set<string>();
  private dirtyAccess = false;
  private dirtyEverything = false;
  /** Numbers the notes of writes; `covered`: every note up to it has been advanced. */
  private published = 0;
  private covered = 0;
  private advancing: Promise<void> | null = null;
  private advancingUpTo = 0;
  private timer: NodeJS.Timeout | undefined;
  /** The context background advances run in: none of a request's, nor of its transaction. */
  private readonly background = new AsyncResource('ChangeEpoch');

  /**
   * `enabled` false (CACHE_TTL_MS=0: no caches) means nobody needs to sync or advance. With a
   * `lease` (`useLease`), a process alone on the database neither reads nor advances the counters.
   */
  constructor(
    private readonly store: EpochStore,
    readonly enabled = true,
  ) {}

  private lease: EpochLease | undefined;

  /**
   * Reads and advances wait until the lease lets them (a process alone elsewhere has shared), and
   * are skipped while this process is alone (EpochLease).
   */
  useLease(lease: EpochLease): void {
    this.lease = lease;
  }

  /** Whether this process skips the counters now: it is alone on the database (EpochLease). */
  alone(): boolean {
    return this.lease?.alone() ?? false;
  }

  /** What a computation that starts now keeps, to ask `unchangedSince` later. */
  snapshot(): EpochView {
    return this.view;
  }

  /**
   * Whether what was computed under `start` still counts: `reads` is what it read (null: not
   * known, so any change ends it); `'access'` asks only about tokens and rights.
   */
  unchangedSince(start: EpochView, reads: ReadSet | null | 'access'): boolean {
    const now = this.view;
    if (now === start) return true;
    if (now.access !== start.access || now.accessHere !== start.accessHere) return false;
    if (reads === 'access') return true;
    if (now.untracked !== start.untracked) return false;
    if (!reads || reads.unknown) return now.all === start.all;
    for (const table of reads.tables) {
      if (now.tables.get(table) !== start.tables.get(table)) return false;
    }
    return true;
  }

  /**
   * Whether the view comes from a read of the counters that started at most `ms` ago: a request's
   * own (every request that reads through a cache syncs as it arrives), or for work outside any
   * request, the last one's.
   */
  readWithin(ms: number): boolean {
    if (this.lease?.alone()) return true;
    return Date.now() - this.lastReadStart <= ms;
  }

  /** Resolves once the counters have been read by a query that started after this call. */
  sync(): Promise<void> {
    // Alone on the database: nobody else announces anything, so there is nothing to learn.
    if (this.lease?.alone()) return ALONE;
    if (!this.inFlight) return (this.inFlight = this.readNow());
    if (!this.next) {
      this.next = this.inFlight.then(
        () => this.startNext(),
        () => this.startNext(),
      );
    }
    return this.next;
  }

  /**
   * `sync()` once per request: the response cache (before routing) and ChangeEpochGuard both need
   * the counters learnt after the request arrived; the second asks and gets the first one's read
   * (kept in the request's RequestContext).
   */
  syncFor(req: object): Promise<void> {
    const context = requestContext(req);
    return (context.epochRead ??= this.sync());
  }

  /**
   * Where this process's own writes stand, for `writtenHereSince`: a computation takes it when it
   * starts, before any query.
   */
  hereMark(): number {
    return this.writesHere;
  }

  /**
   * Whether this process noted a write to a table in `reads` (to any, when `reads` is null or not
   * known) after `mark`. Its own writes end what it remembered at once: the view learns of them
   * only with the next read of the counters, and a request that wrote and then reads through a
   * memo is answered after its write.
   */
  writtenHereSince(mark: number, reads: ReadSet | null): boolean {
    if (this.writesHere === mark) return false;
    if (!reads || reads.unknown || this.unknownWrittenHere > mark) return true;
    for (const table of reads.tables) {
      if ((this.writtenHere.get(table) ?? -1) > mark) return true;
    }
    return false;
  }

  /**
   * Notes tables this process wrote (statement tracking); `'all'`: not known which. They end what
   * this process remembered at once, and the next advance announces them to every process.
   */
  wrote(tables: readonly string[] | 'all'): void {
    if (!this.enabled) return;
    this.noted(tables);
    if (tables === 'all') this.dirtyEverything = true;
    else for (const t of tables) this.dirty.add(t);
    this.published++;
    this.timer ??= this.background.runInAsyncScope(() =>
      setTimeout(() => {
        this.timer = undefined;
        this.flush().catch((err: unknown) => logger.warn(`could not announce a change: ${String(err)}`));
      }, AUTO_FLUSH_MS).unref(),
    );
  }

  /**
   * Resolves once everything this process wrote until now has been advanced. Nothing written:
   * nothing to wait for (a refused write ends no remembered answer).
   */
  async flush(): Promise<void> {
    if (this.lease) {
      // Alone on the database: kept in `dirty` and announced when another process joins (EpochLease).
      if (this.lease.alone()) return;
      await this.lease.ready();
    }
    return this.advanceNoted();
  }

  /**
   * For EpochLease, once another process joined: advances what this process wrote while alone,
   * without waiting on the lease (whose renewal is what calls it).
   */
  catchUp(): Promise<void> {
    return this.advanceNoted();
  }

  /**
   * For EpochLease, before it goes alone: one read of the counters, now, without waiting on the
   * lease nor sharing a read that waits on it.
   */
  async readOnce(): Promise<void> {
    const started = Date.now();
    this.learn(await this.store.read(this.mark));
    if (started > this.lastReadStart) this.lastReadStart = started;
  }

  /** Advances until everything noted before the call is covered. */
  private async advanceNoted(): Promise<void> {
    const target = this.published;
    while (this.covered < target) {
      if (!this.advancing) this.startAdvance();
      const attempt = this.advancing!;
      // The advance in flight took what was noted when it started: enough, or wait and go again.
      if (this.advancingUpTo >= target) return attempt;
      await attempt.catch(() => undefined);
    }
  }

  /**
   * `flush()`, for a write that may also have changed tokens or rights (`access`): then the
   * access counter moves in the same advance and every process forgets its tokens and rights.
   */
  advance(scope: EpochScope = 'changes'): Promise<void> {
    if (scope === 'access' && this.enabled) {
      this.dirtyAccess = true;
      this.published++;
      this.view = { ...this.view, accessHere: this.view.accessHere + 1 };
    }
    return this.flush();
  }

  /**
   * Notes tables a statement of an open transaction wrote: they end what this process remembered
   * at once (a later read of the same request must not be answered from before its own write), but
   * are announced only once the transaction has committed (`wrote`, statement tracking). Announced
   * earlier, another process could read the rows as they were before the commit under the newer
   * stamp and remember them, and the commit would have to be announced again anyway.
   */
  noted(tables: readonly string[] | 'all'): void {
    if (!this.enabled) return;
    const here = ++this.writesHere;
    if (tables === 'all') this.unknownWrittenHere = here;
    else for (const t of tables) this.writtenHere.set(t, here);
  }

  /** Its lease expired (EpochLease): every answer this process remembered ends. */
  lapsed(): void {
    this.noted('all');
  }

  /** For changes made around the statement tracking (bulk loads): every remembered answer ends. */
  advanceEverything(): Promise<void> {
    this.wrote('all');
    return this.flush();
  }

  /** Nest calls it before closing the data source: what is noted but not advanced goes now. */
  async beforeApplicationShutdown(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush().catch((err: unknown) => logger.warn(`could not announce a change: ${String(err)}`));
  }

  /**
   * After every provider's `beforeApplicationShutdown`: what they wrote goes, the process leaves
   * the database's members, then the store closes.
   */
  async onApplicationShutdown(): Promise<void> {
    await this.beforeApplicationShutdown();
    await this.lease
      ?.stop()
      .catch((err: unknown) => logger.warn(`could not leave the database's processes: ${String(err)}`));
    await this.store.close?.();
  }

  private startAdvance(): void {
    const upTo = this.published;
    const what: Advance = {
      tables: [...this.dirty],
      access: this.dirtyAccess,
      everything: this.dirtyEverything,
    };
    this.dirty = new Set();
    this.dirtyAccess = false;
    this.dirtyEverything = false;
    this.advancingUpTo = upTo;
    this.advancing = this.store.advance(what).then(
      () => {
        this.advancing = null;
        if (upTo > this.covered) this.covered = upTo;
      },
      (err: unknown) => {
        // Noted again, for the next advance to carry.
        this.advancing = null;
        for (const t of what.tables) this.dirty.add(t);
        this.dirtyAccess ||= what.access;
        this.dirtyEverything ||= what.everything;
        throw err;
      },
    );
  }

  private startNext(): Promise<void> {
    this.next = null;
    this.inFlight = this.readNow();
    return this.inFlight;
  }

  private async readNow(): Promise<void> {
    try {
      if (this.lease) await this.lease.ready();
      await this.readOnce();
    } finally {
      this.inFlight = null;
    }
  }

  /** Newer values move the view; older ones (a read overtaken by another) change nothing. */
  private learn(read: EpochRead): void {
    const was = this.view;
    let tables: Map<string, number> | undefined;
    for (const [name, stamp] of read.tables) {
      if (stamp > (was.tables.get(name) ?? -1)) {
        tables ??= new Map(was.tables);
        tables.set(name, stamp);
      }
    }
    const all = Math.max(was.all, read.all);
    const access = Math.max(was.access, read.access);
    const untracked = Math.max(was.untracked, read.all - read.tracked);
    if (tables || all !== was.all || access !== was.access || untracked !== was.untracked) {
      this.view = { all, access, accessHere: was.accessHere, untracked, tables: tables ?? was.tables };
    }
    if (read.all > this.mark) this.mark = read.all;
  }
}

const logger = new Logger('ChangeEpoch');

/** An epoch nobody advances: for caches used outside a server (unit tests, scripts). */
export function standingEpoch(): ChangeEpoch {
  return new ChangeEpoch(
    {
      read: () => Promise.resolve({ all: 0, access: 0, tracked: 0, tables: [] }),
      advance: () => Promise.resolve(),
    },
    false,
  );
}

import { DataSource } from 'typeorm';

/**
 * The two counters: `changes` moves with every write; `access` only with writes that may change
 * what a token stands for or what a principal may do (tokens, users, teams, memberships,
 * organizations), which is all the AuthCache remembers.
 */
export type EpochScope = 'changes' | 'access';

export type Epochs = Record<EpochScope, number>;

/** Where the epochs are kept; ChangeEpoch's only dependency, so tests can count the round trips. */
export interface EpochStore {
  /** Both counters, in one read. */
  read(): Promise<Epochs>;
  /** Adds one to a counter and says what it became. */
  advance(scope: EpochScope): Promise<number>;
}

/** Row ids of the counters in `change_epoch` (both created with the value 0 by the migrations). */
const ROWS: Record<EpochScope, number> = { changes: 1, access: 2 };

/**
 * The `change_epoch` rows. An advance is one round trip on both databases: MySQL hands the new
 * value back in the statement's OK packet (`LAST_INSERT_ID(expr)`), SQLite through `RETURNING`.
 */
export class SqlEpochStore implements EpochStore {
  private readonly table: string;
  private readonly mysql: boolean;

  constructor(private readonly ds: DataSource) {
    this.table = ds.driver.escape('change_epoch');
    this.mysql = ds.options.type === 'mysql' || ds.options.type === 'mariadb';
  }

  async read(): Promise<Epochs> {
    const rows = await this.ds.query<{ id: unknown; value: unknown }[]>(
      `SELECT id, value FROM ${this.table} WHERE id IN (${ROWS.changes}, ${ROWS.access})`,
    );
    const value = (id: number) => Number(rows.find((r) => Number(r.id) === id)?.value ?? 0);
    return { changes: value(ROWS.changes), access: value(ROWS.access) };
  }

  async advance(scope: EpochScope): Promise<number> {
    const id = ROWS[scope];
    if (this.mysql) {
      const ok = await this.ds.query<{ insertId: number | string }>(
        `UPDATE ${this.table} SET value = LAST_INSERT_ID(value + 1) WHERE id = ${id}`,
      );
      return Number(ok.insertId);
    }
    const rows = await this.ds.query<{ value: unknown }[]>(
      `UPDATE ${this.table} SET value = value + 1 WHERE id = ${id} RETURNING value`,
    );
    return Number(rows[0].value);
  }
}

/**
 * Makes the per-process caches exact across processes and nodes.
 *
 * Every request that may change state advances the shared epoch after its work has committed and
 * before its answer leaves (ChangeEpochGuard); every request that reads through a cache first
 * learns the epoch with a read that starts after the request arrived (`sync`). Cache entries carry
 * the epoch `current` had when their computation started and count only while it is still current.
 * So once a write has been answered, no request that arrives afterwards, on any process, is served
 * from anything computed before that write. Caches of access state (AuthCache) follow the `access`
 * counter instead, which only writes that may change access advance (besides `changes`): the many
 * writes that cannot change access leave every process's tokens and rights in place.
 *
 * Reads are shared: a request that arrives while a read is in flight waits for the next one, which
 * starts when the current one ends (it could not trust the one in flight: that may have started
 * before a write it must see). Under load this is one query per round-trip time, not per request.
 */
export class ChangeEpoch {
  /** The newest epochs this process has seen; -1 until the first read. */
  private readonly latest: Epochs = { changes: -1, access: -1 };
  private inFlight: Promise<void> | null = null;
  private next: Promise<void> | null = null;
  /** The sync each request in flight made, for whoever in that request asks again. */
  private readonly ofRequest = new WeakMap<object, Promise<void>>();

  /** `enabled` false (CACHE_TTL_MS=0: no caches) means nobody needs to sync or advance. */
  constructor(
    private readonly store: EpochStore,
    readonly enabled = true,
  ) {}

  /** What cache entries made from now on are tagged with. */
  get current(): number {
    return this.latest.changes;
  }

  /** The same for caches of one scope (`of('changes')` is `current`). */
  of(scope: EpochScope): number {
    return this.latest[scope];
  }

  /** Resolves once the epoch has been read by a query that started after this call. */
  sync(): Promise<void> {
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
   * the epoch learnt after the request arrived; the second asks and gets the first one's read.
   */
  syncFor(req: object): Promise<void> {
    let synced = this.ofRequest.get(req);
    if (!synced) {
      synced = this.sync();
      this.ofRequest.set(req, synced);
    }
    return synced;
  }

  /**
   * Advances the shared epoch, and this process's view of it; `access` advances the access counter
   * first, for a write that may have changed tokens or rights.
   */
  async advance(scope: EpochScope = 'changes'): Promise<void> {
    if (scope === 'access') this.learn('access', await this.store.advance('access'));
    this.learn('changes', await this.store.advance('changes'));
  }

  /** A newer value moves this process's view; an older one (a read overtaken) changes nothing. */
  private learn(scope: EpochScope, value: number): void {
    if (value > this.latest[scope]) this.latest[scope] = value;
  }

  private startNext(): Promise<void> {
    this.next = null;
    this.inFlight = this.readNow();
    return this.inFlight;
  }

  private async readNow(): Promise<void> {
    try {
      const read = await this.store.read();
      this.learn('changes', read.changes);
      this.learn('access', read.access);
    } finally {
      this.inFlight = null;
    }
  }
}

/** An epoch nobody advances: for caches used outside a server (unit tests, scripts). */
export function standingEpoch(): ChangeEpoch {
  return new ChangeEpoch(
    { read: () => Promise.resolve({ changes: 0, access: 0 }), advance: () => Promise.resolve(0) },
    false,
  );
}

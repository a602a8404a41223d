import { DataSource } from 'typeorm';

/** Where the epoch is kept; ChangeEpoch's only dependency, so tests can count the round trips. */
export interface EpochStore {
  read(): Promise<number>;
  /** Adds one and says what the epoch became. */
  advance(): Promise<number>;
}

/**
 * The `change_epoch` row (created with the value 0 by the migration). An advance is one round
 * trip on both databases: MySQL hands the new value back in the statement's OK packet
 * (`LAST_INSERT_ID(expr)`), SQLite through `RETURNING`.
 */
export class SqlEpochStore implements EpochStore {
  private readonly table: string;
  private readonly mysql: boolean;

  constructor(private readonly ds: DataSource) {
    this.table = ds.driver.escape('change_epoch');
    this.mysql = ds.options.type === 'mysql' || ds.options.type === 'mariadb';
  }

  async read(): Promise<number> {
    const rows = await this.ds.query<{ value: unknown }[]>(`SELECT value FROM ${this.table} WHERE id = 1`);
    return rows.length ? Number(rows[0].value) : 0;
  }

  async advance(): Promise<number> {
    if (this.mysql) {
      const ok = await this.ds.query<{ insertId: number | string }>(
        `UPDATE ${this.table} SET value = LAST_INSERT_ID(value + 1) WHERE id = 1`,
      );
      return Number(ok.insertId);
    }
    const rows = await this.ds.query<{ value: unknown }[]>(
      `UPDATE ${this.table} SET value = value + 1 WHERE id = 1 RETURNING value`,
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
 * from anything computed before that write.
 *
 * Reads are shared: a request that arrives while a read is in flight waits for the next one, which
 * starts when the current one ends (it could not trust the one in flight: that may have started
 * before a write it must see). Under load this is one query per round-trip time, not per request.
 */
export class ChangeEpoch {
  /** The newest epoch this process has seen; -1 until the first read. */
  private latest = -1;
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
    return this.latest;
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

  /** Advances the shared epoch, and this process's view of it. */
  async advance(): Promise<void> {
    this.learn(await this.store.advance());
  }

  /** A newer value moves this process's view; an older one (a read overtaken) changes nothing. */
  private learn(value: number): void {
    if (value > this.latest) this.latest = value;
  }

  private startNext(): Promise<void> {
    this.next = null;
    this.inFlight = this.readNow();
    return this.inFlight;
  }

  private async readNow(): Promise<void> {
    try {
      this.learn(await this.store.read());
    } finally {
      this.inFlight = null;
    }
  }
}

/** An epoch nobody advances: for caches used outside a server (unit tests, scripts). */
export function standingEpoch(): ChangeEpoch {
  return new ChangeEpoch({ read: () => Promise.resolve(0), advance: () => Promise.resolve(0) }, false);
}

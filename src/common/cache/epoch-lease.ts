import { Logger } from '@nestjs/common';
import { AsyncResource } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** What a member's row says after a join or a renewal, read under the members' lock. */
export interface MemberState {
  /** This member is marked alone: no other member was live when it joined or renewed. */
  alone: boolean;
  /** Other live members. */
  others: number;
  /** Other live members marked alone: until they share, this one may not read or advance. */
  othersAlone: number;
}

/** Where the members are kept (SqlEpochStore); every call is one transaction under the members' lock. */
export interface LeaseStore {
  /** Drops expired members and enters `id` for `leaseMs`, alone when no other member is live. */
  join(id: string, leaseMs: number): Promise<MemberState>;
  /**
   * Drops expired members and extends `id`'s lease by `leaseMs`; marks it alone when no other
   * member is live, and otherwise leaves its mark as it is (a member alone clears it with `share`
   * once it has caught up). Null when `id` had expired: it is no longer a member.
   */
  renew(id: string, leaseMs: number): Promise<MemberState | null>;
  /** `id` reads and advances the counters again: members waiting on it may go on. */
  share(id: string): Promise<void>;
  leave(id: string): Promise<void>;
}

/** What the lease asks of the change counters (ChangeEpoch) when its standing changes. */
export interface LeaseHooks {
  /** Before going alone: one read of the counters, to learn what departed members announced. */
  lastRead(): Promise<void>;
  /** Before telling others it shares again: announce everything written while alone. */
  catchUp(): Promise<void>;
  /** The lease expired (others may have written unannounced): every remembered answer ends. */
  lapsed(): void;
}

export interface LeaseTimings {
  /** How long a join or renewal counts, by the database's clock. */
  leaseMs: number;
  /** How often a member renews (and so how long a joining process waits for one alone). */
  renewMs: number;
  /** Taken off the lease locally: the member stops relying on it this much before it expires. */
  marginMs: number;
  /** How often a member that waits for one alone renews. */
  waitMs: number;
}

/**
 * A process killed without leaving holds up one that joins for at most `leaseMs`; one alone relies
 * on its lease for `leaseMs - marginMs` after the renewal started, and renews every `renewMs`.
 */
export const LEASE_TIMINGS: LeaseTimings = { leaseMs: 5_000, renewMs: 1_000, marginMs: 2_000, waitMs: 100 };

type Phase = 'out' | 'waiting' | 'shared' | 'alone';

const READY = Promise.resolve();

/**
 * A process's membership of the processes using one database, which lets a process alone on it skip
 * the change counters: its own writes end what it remembered at once (ChangeEpoch.writtenHereSince),
 * and nobody else writes, so reading the counters would learn nothing and advancing them would tell
 * nobody. That saves a round trip on every request that reads through a cache and on every write.
 *
 * Each process joins with a lease and renews it every `renewMs`; a member whose renewal finds no
 * other live member is marked alone, and stops reading and advancing once it has read the counters
 * one last time (what departed members announced). A process that joins while a member is alone
 * waits before its first read or advance: the member alone sees it at its next renewal, announces
 * everything it wrote while alone (one advance), and clears its mark; or its lease expires. Joins
 * and renewals take the same lock, so a member can be marked alone only while no other is live,
 * and one that joins afterwards sees the mark.
 *
 * A member relies on its lease only until `marginMs` before it expires by the database's clock:
 * then it reads and advances again, and renews before its next read or advance. A member whose
 * lease expired rejoins as a new member and ends everything it remembered (a member alone may
 * have written meanwhile without announcing it).
 */
export class EpochLease {
  private phase: Phase = 'out';
  private id: string | undefined;
  /** performance.now() until which the lease is relied on. */
  private validUntil = -Infinity;
  private ticking: Promise<void> = READY;
  private settling: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Renewals run in a context of their own, never a request's or its transaction's. */
  private readonly background = new AsyncResource('EpochLease');

  constructor(
    private readonly store: LeaseStore,
    private readonly hooks: LeaseHooks,
    private readonly timings: LeaseTimings = LEASE_TIMINGS,
  ) {}

  /** Joins at once and renews every `renewMs` until `stop`. */
  start(): void {
    if (this.timer || this.stopped) return;
    this.background.runInAsyncScope(() => {
      this.timer = setInterval(() => {
        this.tick().catch((err: unknown) =>
          logger.warn(`could not renew the database lease: ${String(err)}`),
        );
      }, this.timings.renewMs).unref();
    });
    this.ready().catch((err: unknown) =>
      logger.warn(`could not join the database's processes: ${String(err)}`),
    );
  }

  /** Whether this process may skip the counters now. */
  alone(): boolean {
    return this.phase === 'alone' && performance.now() < this.validUntil;
  }

  /** Resolves once this process may read and advance the counters (a member, nobody else alone). */
  ready(): Promise<void> {
    if (this.stopped || (this.counts() && performance.now() < this.validUntil)) return READY;
    return (this.settling ??= this.settle().finally(() => (this.settling = undefined)));
  }

  /** Stops renewing and leaves (after the last advance): others may go alone at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.ticking.catch(() => undefined);
    const id = this.id;
    this.id = undefined;
    this.phase = 'out';
    if (id) await this.store.leave(id);
  }

  private counts(): boolean {
    return this.phase === 'shared' || this.phase === 'alone';
  }

  private async settle(): Promise<void> {
    for (;;) {
      await this.tick();
      if (this.stopped || (this.counts() && performance.now() < this.validUntil)) return;
      await new Promise((resolve) => setTimeout(resolve, this.timings.waitMs));
    }
  }

  /** One join or renewal at a time: a call while one runs waits for it and then runs its own. */
  private tick(): Promise<void> {
    const next = this.ticking.then(
      () => this.background.runInAsyncScope(() => this.renew()),
      () => this.background.runInAsyncScope(() => this.renew()),
    );
    this.ticking = next.catch(() => undefined);
    return next;
  }

  /** Renews this process's membership, or joins as a new member when it has none (or it expired). */
  private async renewOrJoin(): Promise<{ id: string; state: MemberState }> {
    const { leaseMs } = this.timings;
    if (this.id !== undefined) {
      const state = await this.store.renew(this.id, leaseMs);
      if (state) return { id: this.id, state };
      // Expired: a member alone may have written since without announcing it.
      this.phase = 'out';
      this.hooks.lapsed();
    }
    const id = (this.id = randomUUID());
    return { id, state: await this.store.join(id, leaseMs) };
  }

  private async renew(): Promise<void> {
    if (this.stopped) return;
    const started = performance.now();
    const { id, state } = await this.renewOrJoin();
    this.validUntil = started + this.timings.leaseMs - this.timings.marginMs;
    if (state.othersAlone > 0) {
      this.phase = 'waiting';
      return;
    }
    if (!state.alone) {
      this.phase = 'shared';
      return;
    }
    if (state.others > 0) {
      // Someone joined: read and advance again, announce what was written alone, then let it go on.
      this.phase = 'shared';
      await this.hooks.catchUp();
      await this.store.share(id);
      return;
    }
    if (this.phase === 'alone') return;
    this.phase = 'shared';
    await this.hooks.lastRead();
    if (!this.stopped) this.phase = 'alone';
  }
}

const logger = new Logger('EpochLease');

import { ChangeEpoch } from './change-epoch';
import { EpochLease, LeaseHooks, LeaseStore, LeaseTimings, MemberState } from './epoch-lease';
import { MemoryEpochStore } from './memory-epoch-store.testing';
import { ReadSet } from './read-set';

/** The members' table of SqlEpochStore in memory; `now` is the database's clock. */
class MemoryMembers implements LeaseStore {
  now = 0;
  readonly rows = new Map<string, { until: number; alone: boolean }>();
  /** When set, renewals wait until it resolves (a database that stopped answering). */
  hold: Promise<void> | undefined;

  async join(id: string, leaseMs: number): Promise<MemberState> {
    await this.hold;
    this.expire();
    this.rows.set(id, { until: this.now + leaseMs, alone: this.rows.size === 0 });
    return this.state(id)!;
  }

  async renew(id: string, leaseMs: number): Promise<MemberState | null> {
    await this.hold;
    this.expire();
    const me = this.rows.get(id);
    if (!me) return null;
    me.until = this.now + leaseMs;
    if (this.rows.size === 1) me.alone = true;
    return this.state(id);
  }

  share(id: string): Promise<void> {
    const me = this.rows.get(id);
    if (me) me.alone = false;
    return Promise.resolve();
  }

  leave(id: string): Promise<void> {
    this.rows.delete(id);
    return Promise.resolve();
  }

  get alone(): number {
    return [...this.rows.values()].filter((r) => r.alone).length;
  }

  private expire(): void {
    for (const [id, row] of this.rows) if (row.until <= this.now) this.rows.delete(id);
  }

  private state(id: string): MemberState | null {
    const me = this.rows.get(id);
    if (!me) return null;
    const others = [...this.rows].filter(([other]) => other !== id).map(([, row]) => row);
    return { alone: me.alone, others: others.length, othersAlone: others.filter((r) => r.alone).length };
  }
}

const FAST: LeaseTimings = { leaseMs: 10_000, renewMs: 15, marginMs: 3_000, waitMs: 5 };

function recorder(): LeaseHooks & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    lastRead: () => Promise.resolve(void calls.push('lastRead')),
    catchUp: () => Promise.resolve(void calls.push('catchUp')),
    lapsed: () => void calls.push('lapsed'),
  };
}

const until = async (condition: () => boolean) => {
  for (let i = 0; i < 400 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(condition()).toBe(true);
};

describe(EpochLease.name, () => {
  const leases: EpochLease[] = [];
  const lease = (members: LeaseStore, hooks: LeaseHooks, timings = FAST) => {
    const made = new EpochLease(members, hooks, timings);
    leases.push(made);
    return made;
  };
  afterEach(async () => {
    await Promise.all(leases.splice(0).map((l) => l.stop()));
  });

  it('goes alone when no other process uses the database, after one last read of the counters', async () => {
    const members = new MemoryMembers();
    const hooks = recorder();
    const a = lease(members, hooks);
    expect(a.alone()).toBe(false);
    await a.ready();
    expect(a.alone()).toBe(true);
    expect(hooks.calls).toEqual(['lastRead']);
    expect(members.alone).toBe(1);
  });

  it('makes a process that joins wait until the one alone has announced what it wrote and shares', async () => {
    const members = new MemoryMembers();
    const aHooks = recorder();
    const a = lease(members, aHooks);
    a.start();
    await until(() => a.alone());
    const b = lease(members, recorder());
    let bReady = false;
    const joined = b.ready().then(() => {
      bReady = true;
      // By then A has caught up and reads and advances the counters again.
      expect(aHooks.calls).toEqual(['lastRead', 'catchUp']);
      expect(a.alone()).toBe(false);
    });
    await new Promise((r) => setTimeout(r, 1));
    expect(bReady).toBe(false);
    await joined;
    expect(b.alone()).toBe(false);
    expect(members.alone).toBe(0);
  });

  it('never lets two processes be alone, however they join', async () => {
    const members = new MemoryMembers();
    const all = Array.from({ length: 5 }, () => lease(members, recorder()));
    await Promise.all(all.map((l) => (l.start(), l.ready())));
    for (let i = 0; i < 10; i++) {
      await new Promise((r) => setTimeout(r, 5));
      expect(all.filter((l) => l.alone()).length).toBeLessThanOrEqual(1);
      expect(members.alone).toBeLessThanOrEqual(1);
    }
    await until(() => all.every((l) => !l.alone()));
  });

  it('goes alone again once the others have left', async () => {
    const members = new MemoryMembers();
    const aHooks = recorder();
    const a = lease(members, aHooks);
    a.start();
    await a.ready();
    const b = lease(members, recorder());
    await b.ready();
    expect(a.alone()).toBe(false);
    await b.stop();
    await until(() => a.alone());
    expect(aHooks.calls).toEqual(['lastRead', 'catchUp', 'lastRead']);
  });

  it('stops relying on a lease it cannot renew before the lease expires', async () => {
    const members = new MemoryMembers();
    const a = lease(members, recorder(), { leaseMs: 120, renewMs: 10, marginMs: 60, waitMs: 5 });
    a.start();
    await a.ready();
    expect(a.alone()).toBe(true);
    let answer = () => undefined as void;
    members.hold = new Promise((resolve) => (answer = resolve));
    const from = performance.now();
    await until(() => !a.alone());
    expect(performance.now() - from).toBeLessThan(120);
    answer();
  });

  it('joins again as a new member, ending what it remembered, when its lease expired', async () => {
    const members = new MemoryMembers();
    const hooks = recorder();
    const a = lease(members, hooks);
    await a.ready();
    const [first] = members.rows.keys();
    // The database's clock passes the lease, as after a long pause of this process.
    members.now += 60_000;
    a.start();
    await until(() => hooks.calls.includes('lapsed') && a.alone());
    expect([...members.rows.keys()]).not.toContain(first);
    expect(members.rows.size).toBe(1);
  });
});

/** A ChangeEpoch with its lease, wired as CacheModule wires them. */
function leased(counters: MemoryEpochStore, members: MemoryMembers) {
  const epoch = new ChangeEpoch(counters);
  const lease = new EpochLease(
    members,
    { lastRead: () => epoch.readOnce(), catchUp: () => epoch.catchUp(), lapsed: () => epoch.lapsed() },
    FAST,
  );
  epoch.useLease(lease);
  return { epoch, lease };
}

describe('ChangeEpoch with a lease', () => {
  it('answers the reads and advances that waited for the lease once it goes alone', async () => {
    const counters = new MemoryEpochStore();
    const members = new MemoryMembers();
    const { epoch, lease } = leased(counters, members);
    try {
      // A request's read and a write's advance wait for the first renewal, which goes alone after
      // a last read of its own: neither waits on the other.
      const waiting = Promise.all([epoch.sync(), (epoch.wrote(['teams']), epoch.flush())]);
      lease.start();
      await waiting;
      expect(lease.alone()).toBe(true);
    } finally {
      await lease.stop();
    }
  });

  const reading = (...tables: string[]) => {
    const reads = new ReadSet();
    reads.add(tables);
    return reads;
  };

  it('neither reads nor advances the counters while alone, and announces what it wrote once another joins', async () => {
    const counters = new MemoryEpochStore();
    const members = new MemoryMembers();
    const { epoch, lease } = leased(counters, members);
    try {
      lease.start();
      await until(() => lease.alone());
      const reads = counters.reads;
      const start = epoch.snapshot();
      const here = epoch.hereMark();
      await epoch.sync();
      epoch.wrote(['workspaces']);
      await epoch.flush();
      expect(counters.reads).toBe(reads);
      expect(counters.advances).toEqual([]);
      // Its own write ends what it remembered at once.
      expect(epoch.writtenHereSince(here, reading('workspaces'))).toBe(true);
      expect(epoch.unchangedSince(start, reading('workspaces'))).toBe(true);

      const other = new EpochLease(
        members,
        { lastRead: async () => {}, catchUp: async () => {}, lapsed: () => {} },
        FAST,
      );
      await other.ready();
      await other.stop();
      expect(counters.advances).toEqual([{ tables: ['workspaces'], access: false, everything: false }]);
      expect(lease.alone()).toBe(false);
    } finally {
      await lease.stop();
    }
  });

  it('ends what it made for a principal as soon as a write that may change access is answered, alone too', async () => {
    const { epoch, lease } = leased(new MemoryEpochStore(), new MemoryMembers());
    try {
      lease.start();
      await until(() => lease.alone());
      const start = epoch.snapshot();
      await epoch.advance('changes');
      expect(epoch.unchangedSince(start, 'access')).toBe(true);
      await epoch.advance('access');
      expect(epoch.unchangedSince(start, 'access')).toBe(false);
      expect(epoch.unchangedSince(start, reading('workspaces'))).toBe(false);
    } finally {
      await lease.stop();
    }
  });

  it('ends everything it remembered when its lease lapsed', () => {
    const epoch = new ChangeEpoch(new MemoryEpochStore());
    const here = epoch.hereMark();
    epoch.lapsed();
    expect(epoch.writtenHereSince(here, reading('anything'))).toBe(true);
  });
});

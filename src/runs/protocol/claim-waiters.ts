/** Where a queued job may go: its pool, or (no pool) the organization-scoped pools of its organization. */
export interface JobScope {
  poolId: string | null;
  organizationId: string;
}

/** Which jobs a waiting claim may take (the agent's pool, and unassigned ones when it serves the organization). */
export interface WaiterScope {
  poolId: string;
  organizationId: string;
  organizationScoped: boolean;
}

/** How a wait ended: a job of its scope was queued (`by`), the time ran out or the client left, or the process stops. */
export type WaitOutcome = { woken: JobScope } | 'timeout' | 'closed';

interface Waiter {
  keys: string[];
  settle(outcome: WaitOutcome): void;
}

const poolKey = (poolId: string): string => `p:${poolId}`;
const orgKey = (organizationId: string): string => `o:${organizationId}`;

function keysOf(scope: WaiterScope): string[] {
  return scope.organizationScoped
    ? [poolKey(scope.poolId), orgKey(scope.organizationId)]
    : [poolKey(scope.poolId)];
}

const keyOfJob = (job: JobScope): string => (job.poolId ? poolKey(job.poolId) : orgKey(job.organizationId));

/**
 * The claims of one process that wait for a job, in memory, by the scope they may take. A queued
 * job wakes the oldest waiter of its scope (one per job: the others keep waiting); the woken claim
 * tries to claim and, when another took the job first, waits again. Nothing here reads the
 * database: a waiter costs a timer and a place in a set.
 */
export class ClaimWaiters {
  private readonly byKey = new Map<string, Set<Waiter>>();
  /** Wakes per scope key: a claim that read nothing while a wake came reads again instead of waiting. */
  private readonly wakes = new Map<string, number>();
  private count = 0;
  private closed = false;

  get size(): number {
    return this.count;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** A mark to take before reading the queue; `wokenSince(mark)` then says whether to read again. */
  mark(scope: WaiterScope): number {
    return keysOf(scope).reduce((sum, key) => sum + (this.wakes.get(key) ?? 0), 0);
  }

  wokenSince(scope: WaiterScope, mark: number): boolean {
    return this.mark(scope) !== mark;
  }

  /** Waits until a job of `scope` is queued, `ms` pass, `signal` aborts or the process stops. */
  wait(scope: WaiterScope, ms: number, signal?: AbortSignal): Promise<WaitOutcome> {
    if (this.closed) return Promise.resolve('closed');
    if (signal?.aborted) return Promise.resolve('timeout');
    return new Promise<WaitOutcome>((resolve) => {
      const keys = keysOf(scope);
      const onAbort = (): void => waiter.settle('timeout');
      const timer = setTimeout(onAbort, ms);
      const waiter: Waiter = {
        keys,
        settle: (outcome) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          if (this.remove(waiter)) resolve(outcome);
        },
      };
      for (const key of keys) {
        let set = this.byKey.get(key);
        if (!set) this.byKey.set(key, (set = new Set()));
        set.add(waiter);
      }
      this.count++;
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** A job of `job`'s scope was queued `count` times: wakes that many of its oldest waiters. Returns how many woke. */
  wake(job: JobScope, count = 1): number {
    const key = keyOfJob(job);
    this.wakes.set(key, (this.wakes.get(key) ?? 0) + 1);
    const set = this.byKey.get(key);
    let woken = 0;
    if (!set) return woken;
    for (const waiter of set) {
      if (woken >= count) break;
      waiter.settle({ woken: job });
      woken++;
    }
    return woken;
  }

  /** Whether any waiter here may take a job of `job`'s scope. */
  has(job: JobScope): boolean {
    return (this.byKey.get(keyOfJob(job))?.size ?? 0) > 0;
  }

  /** Ends every wait with `closed` and refuses new ones (the process stops). */
  close(): void {
    this.closed = true;
    for (const set of [...this.byKey.values()]) for (const waiter of [...set]) waiter.settle('closed');
  }

  /** Takes the waiter out of every set; false when it was settled already. */
  private remove(waiter: Waiter): boolean {
    let found = false;
    for (const key of waiter.keys) {
      const set = this.byKey.get(key);
      if (set?.delete(waiter)) found = true;
      if (set?.size === 0) this.byKey.delete(key);
    }
    if (found) this.count--;
    return found;
  }
}

/**
 * The `wait` of a claim, in seconds: absent or empty means answer at once; otherwise a whole
 * number from 0 to `max` (CLAIM_WAIT_MAX_SECONDS), or null when it is not one.
 */
export function parseClaimWait(raw: unknown, max: number): number | null {
  if (raw === undefined || raw === '') return 0;
  if (typeof raw !== 'string' || !/^\d{1,6}$/.test(raw)) return null;
  const seconds = Number(raw);
  return seconds <= max ? seconds : null;
}

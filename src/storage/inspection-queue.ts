import { DomainError } from '../common/errors/domain-error';

export interface InspectionQueueLimits {
  /** Inspections that run at once (the worker threads). */
  running: number;
  /** Inspections of one owner (organization) running or waiting at once; the next is refused with 429. */
  perOwner: number;
  /** Inspections waiting for a worker, every owner's together; the next is refused with 503. */
  waiting: number;
}

/** Seconds a refused upload is told to wait before it tries again (`Retry-After`). */
export const RETRY_AFTER_SECONDS = 5;

/** An upload refused because too many inspections are under way; the answer carries `Retry-After`. */
export class InspectionsBusy extends DomainError {
  override readonly retryAfterSeconds = RETRY_AFTER_SECONDS;
}

/** A place in the queue: `turn` resolves when the inspection may run; `leave` gives the place up. */
export interface QueueTicket {
  readonly turn: Promise<void>;
  /** Frees the place, whether the inspection ran, waits still, or is over: call it exactly once. */
  leave(): void;
}

interface Waiter {
  owner: string;
  start: () => void;
}

/**
 * Who inspects next. Admission is per owner (an organization): an owner with `perOwner`
 * inspections running or waiting is refused, so one organization's hostile uploads cannot fill
 * the queue. A free worker goes to the waiting owner with the fewest inspections running, and
 * among those to the one served longest ago, so an organization's upload waits for at most one
 * inspection of each other organization, however many that one sent.
 */
export class InspectionQueue {
  private runningNow = 0;
  private waitingNow = 0;
  private served = 0;
  /** Per owner with anything under way: how many it holds, runs, and when it last got a worker. */
  private readonly owners = new Map<string, { held: number; running: number; servedAt: number }>();
  /** Owners with waiting inspections, each with its own queue (first come, first served). */
  private readonly queues = new Map<string, Waiter[]>();

  constructor(private readonly limits: InspectionQueueLimits) {}

  /** A place for an inspection of `owner`, or InspectionsBusy when there is none to give. */
  enter(owner: string): QueueTicket {
    const state = this.owners.get(owner) ?? { held: 0, running: 0, servedAt: -1 };
    if (state.held >= this.limits.perOwner) {
      throw new InspectionsBusy('rate-limited', [
        {
          detail:
            `This organization already has ${this.limits.perOwner} archive inspections under way; ` +
            `try again in ${RETRY_AFTER_SECONDS} seconds`,
        },
      ]);
    }
    const mustWait = this.runningNow >= this.limits.running;
    if (mustWait && this.waitingNow >= this.limits.waiting) {
      throw new InspectionsBusy('unavailable', [
        {
          detail: `The server has ${this.limits.waiting} archive inspections waiting; try again in ${RETRY_AFTER_SECONDS} seconds`,
        },
      ]);
    }
    state.held += 1;
    this.owners.set(owner, state);
    let place: 'waiting' | 'running' | 'left' = 'waiting';
    let waiter: Waiter | undefined;
    const turn = new Promise<void>((resolve) => {
      waiter = {
        owner,
        start: () => {
          place = 'running';
          this.start(owner);
          resolve();
        },
      };
      if (mustWait) this.wait(waiter);
      else waiter.start();
    });
    return {
      turn,
      leave: () => {
        if (place === 'left') return;
        if (place === 'waiting') this.unwait(waiter as Waiter);
        else this.finish(owner);
        place = 'left';
        state.held -= 1;
        if (state.held === 0) this.owners.delete(owner);
      },
    };
  }

  private start(owner: string): void {
    const state = this.owners.get(owner);
    if (state) {
      state.running += 1;
      state.servedAt = ++this.served;
    }
    this.runningNow += 1;
  }

  private wait(waiter: Waiter): void {
    this.waitingNow += 1;
    const queue = this.queues.get(waiter.owner);
    if (queue) queue.push(waiter);
    else this.queues.set(waiter.owner, [waiter]);
  }

  private unwait(waiter: Waiter): void {
    const queue = this.queues.get(waiter.owner) ?? [];
    const at = queue.indexOf(waiter);
    if (at < 0) return;
    queue.splice(at, 1);
    this.waitingNow -= 1;
    if (queue.length === 0) this.queues.delete(waiter.owner);
  }

  /** A running inspection of `owner` is over: its worker goes to the owner whose turn it is. */
  private finish(owner: string): void {
    const state = this.owners.get(owner);
    if (state) state.running -= 1;
    this.runningNow -= 1;
    let next: string | undefined;
    let best: [number, number] = [Infinity, Infinity];
    for (const candidate of this.queues.keys()) {
      const { running, servedAt } = this.owners.get(candidate) ?? { running: 0, servedAt: -1 };
      if (running < best[0] || (running === best[0] && servedAt < best[1])) {
        next = candidate;
        best = [running, servedAt];
      }
    }
    if (next === undefined) return;
    const queue = this.queues.get(next) as Waiter[];
    const waiter = queue.shift() as Waiter;
    this.waitingNow -= 1;
    if (queue.length === 0) this.queues.delete(next);
    waiter.start();
  }
}

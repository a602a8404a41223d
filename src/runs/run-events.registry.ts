import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { RunEntity } from './entities/run.entity';
import type { RunStatus } from './run-rules';

/**
 * Told of every run created (`from` null) and of every move of a run's status, inside the
 * transaction that writes it: what it writes commits or rolls back with the move. `run` is the
 * run as it is after the move; `by` the user whose action made it (who created, confirmed,
 * discarded, canceled the run or overrode its policies), null when an executor or the server did.
 */
export type RunEventListener = (
  manager: EntityManager,
  run: RunEntity,
  from: RunStatus | null,
  by: string | null,
) => Promise<void>;

/**
 * Listeners of run moves, registered at start-up by modules above runs (notifications), so that
 * runs imports none of them.
 */
@Injectable()
export class RunEventsRegistry {
  private readonly listeners: RunEventListener[] = [];

  register(listener: RunEventListener): void {
    this.listeners.push(listener);
  }

  async emit(
    manager: EntityManager,
    run: RunEntity,
    from: RunStatus | null,
    by: string | null = null,
  ): Promise<void> {
    for (const listener of this.listeners) await listener(manager, run, from, by);
  }
}

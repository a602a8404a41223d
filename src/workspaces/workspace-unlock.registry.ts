import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/**
 * Runs inside the transaction that has just unlocked a workspace (its row is locked until the
 * commit). Throwing refuses the unlock: the transaction rolls back and the lock stays. `forced`: an
 * administrator's force-unlock, which no hook may refuse.
 */
export type WorkspaceUnlockHook = (
  manager: EntityManager,
  workspaceId: string,
  forced: boolean,
) => Promise<void>;

/**
 * The state-versions module sits above workspaces and runs, which unlock workspaces: it registers
 * here at start-up what an unlock means for state (a pending version refuses it) instead of being
 * imported by them.
 */
@Injectable()
export class WorkspaceUnlockHooks {
  private readonly hooks: WorkspaceUnlockHook[] = [];

  register(hook: WorkspaceUnlockHook): void {
    this.hooks.push(hook);
  }

  async run(manager: EntityManager, workspaceId: string, forced: boolean): Promise<void> {
    for (const hook of this.hooks) await hook(manager, workspaceId, forced);
  }
}

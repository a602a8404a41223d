import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ProjectsService } from '../projects/projects.service';
import { WorkspaceLockHolder } from './entities/workspace.entity';
import { WorkspaceUnlockHooks } from './workspace-unlock.registry';
import { WorkspaceQueueState, WorkspacesRepository, WorkspaceStateGuard } from './workspaces.repository';

export type { WorkspaceQueueState, WorkspaceStateGuard } from './workspaces.repository';
export type { WorkspaceLockHolder } from './entities/workspace.entity';

/**
 * The workspace's row locks that other modules take inside their own transactions, and what they
 * write under them: the run queue's (`lockForQueue`), the workspace's lock itself (`lockFor`,
 * `unlock`, `release`), a state write's (`lockForStateWrite`, `setCurrentState`) and a tag
 * change's. Each joins the caller's transaction through its manager.
 */
@Injectable()
export class WorkspaceLocks {
  constructor(
    private readonly repo: WorkspacesRepository,
    private readonly projects: ProjectsService,
    private readonly unlockHooks: WorkspaceUnlockHooks,
  ) {}

  /**
   * Locks the workspace's row for the rest of `manager`'s transaction and reads, on that same
   * connection, what the runs module decides the workspace's queue on. Null once deleted.
   */
  lockForQueue(manager: EntityManager, id: string): Promise<WorkspaceQueueState | null> {
    return this.repo.lockForQueue(manager, id);
  }

  /** Locks an unlocked workspace for `holder`; false when it was locked already. */
  lockFor(manager: EntityManager, id: string, holder: WorkspaceLockHolder): Promise<boolean> {
    return this.repo.setLock(manager, id, holder, new Date());
  }

  /**
   * Unlocks a locked workspace; false when it was not locked. The registered unlock hooks run in
   * the same transaction and may refuse it (by throwing), unless it is `forced` (force-unlock).
   */
  async unlock(
    manager: EntityManager,
    id: string,
    options: { forced: boolean } = { forced: false },
  ): Promise<boolean> {
    if (!(await this.repo.setLock(manager, id, null, new Date()))) return false;
    await this.unlockHooks.run(manager, id, options.forced);
    return true;
  }

  /**
   * Releases the lock `holder` holds (a run that ended); false when the lock is someone else's or
   * gone (force-unlocked meanwhile). The unlock hooks run as for a forced unlock: nothing may keep
   * a run that ended holding the workspace.
   */
  async release(manager: EntityManager, id: string, holder: WorkspaceLockHolder): Promise<boolean> {
    if (!(await this.repo.releaseLock(manager, id, holder, new Date()))) return false;
    await this.unlockHooks.run(manager, id, true);
    return true;
  }

  /**
   * Locks the workspace's row for the rest of `manager`'s transaction and reads who holds its lock
   * and which state version is current: state writes are decided on it. Null once deleted.
   */
  lockForStateWrite(manager: EntityManager, id: string): Promise<WorkspaceStateGuard | null> {
    return this.repo.lockForStateWrite(manager, id);
  }

  /** Points the workspace at its new current state version (inside the state write's transaction). */
  setCurrentState(
    manager: EntityManager,
    id: string,
    state: { stateVersionId: string; resourceCount: number },
  ): Promise<void> {
    return this.repo.setCurrentState(manager, id, state);
  }

  /** Locks the workspace's row, then its project's, for a write of the workspace's tag bindings. */
  async lockForTagChange(manager: EntityManager, ws: { id: string; projectId: string }): Promise<void> {
    await this.repo.lock(manager, ws.id);
    await this.projects.lockForTagChange(manager, ws.projectId);
  }
}

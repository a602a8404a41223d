import { Injectable } from '@nestjs/common';
import { ChangeEpoch } from '../common/cache/change-epoch';
import { TtlMemo } from '../common/cache/ttl-memo';
import { AppConfig } from '../config/app-config';
import { WorkspaceEntity } from './entities/workspace.entity';

/**
 * Workspaces by id, the read nearly every workspace-scoped request and every executor's claim
 * makes first. An entry ends with a change to what its load read (the workspaces table) anywhere,
 * and at once with this process's own; changes to other tables (runs, jobs, policy sets) leave it.
 * Each caller gets a copy of its own: services change the workspace they were given before they save it.
 */
@Injectable()
export class WorkspaceByIdCache extends TtlMemo {
  protected override readonly tracksEveryLoad = true;

  constructor(config: AppConfig, epoch: ChangeEpoch) {
    super(config.cacheTtlMs, epoch);
  }

  async workspace(id: string, load: () => Promise<WorkspaceEntity | null>): Promise<WorkspaceEntity | null> {
    const kept = await this.get(`ws:${id}`, load);
    return kept && Object.assign(new WorkspaceEntity(), kept);
  }

  /**
   * The remembered workspace (null: remembered as gone), or undefined when none is live or its load
   * has not ended; never loads, never waits on another request's load (TtlMemo.peekSettled).
   */
  kept(id: string): Promise<WorkspaceEntity | null> | undefined {
    const kept = this.peekSettled<Promise<WorkspaceEntity | null>>(`ws:${id}`);
    return kept?.then((ws) => ws && Object.assign(new WorkspaceEntity(), ws));
  }
}

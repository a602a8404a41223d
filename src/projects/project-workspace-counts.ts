import { Injectable } from '@nestjs/common';
import { ChangeEpoch } from '../common/cache/change-epoch';
import { TtlMemo } from '../common/cache/ttl-memo';
import { AppConfig } from '../config/app-config';

/** Workspaces in each of the given projects, one aggregate query over the workspaces table. */
export type WorkspaceCounter = (projectIds: string[]) => Promise<Map<string, number>>;

/**
 * Workspace counts of projects (`workspace-count`), remembered per project for CACHE_TTL_MS: a
 * page of policy sets including their projects would otherwise count thousands of workspaces on
 * every request. Counts read before an answered change do not count afterwards on any process (the
 * change epoch, which learns of them where their statements run). Rules that depend
 * on the count (a project with workspaces cannot be deleted) ask `exact`, never the memo.
 *
 * The workspaces module owns the table and depends on this one, so it registers the counting query
 * at start-up (WorkspaceUsage) instead of this module importing it.
 */
@Injectable()
export class ProjectWorkspaceCounts {
  private readonly memo: TtlMemo;
  private counter?: WorkspaceCounter;

  constructor(config: AppConfig, changes: ChangeEpoch) {
    this.memo = new TtlMemo(config.cacheTtlMs, changes);
  }

  register(counter: WorkspaceCounter): void {
    this.counter = counter;
  }

  /** Counts read now, not remembered. */
  exact(projectIds: string[]): Promise<Map<string, number>> {
    if (!this.counter) throw new Error('no workspace counter registered');
    return this.counter(projectIds);
  }

  async of(projectIds: string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    const missing: string[] = [];
    for (const id of new Set(projectIds)) {
      const known = this.memo.peek<number>(id);
      if (known === undefined) missing.push(id);
      else counts.set(id, known);
    }
    if (!missing.length) return counts;
    const { value, stamp } = this.memo.loadNoting(() => this.exact(missing));
    for (const [id, count] of await value) {
      counts.set(id, count);
      this.memo.set(id, count, stamp);
    }
    return counts;
  }
}

import { Injectable } from '@nestjs/common';
import { TtlMemo } from '../common/cache/ttl-memo';
import { AppConfig } from '../config/app-config';
import { ProjectsRepository } from './projects.repository';

/**
 * Workspace counts of projects (`workspace-count`), remembered per project for CACHE_TTL_MS: a
 * page of policy sets including their projects would otherwise count thousands of workspaces on
 * every request. WorkspacesService calls `forget()` after any workspace is created, moved or
 * deleted in this process; other processes may show a count up to the TTL old. Rules that depend
 * on the count (a project with workspaces cannot be deleted) ask the repository, never this.
 */
@Injectable()
export class ProjectWorkspaceCounts {
  private readonly memo: TtlMemo;
  /** Bumped by forget(): a count loaded before a change must not be remembered after it. */
  private epoch = 0;

  constructor(
    config: AppConfig,
    private readonly repo: ProjectsRepository,
  ) {
    this.memo = new TtlMemo(config.cacheTtlMs);
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
    const epoch = this.epoch;
    const loaded = await this.repo.workspaceCounts(missing);
    for (const [id, count] of loaded) {
      counts.set(id, count);
      if (epoch === this.epoch) this.memo.set(id, count);
    }
    return counts;
  }

  forget(): void {
    this.epoch++;
    this.memo.invalidate();
  }
}

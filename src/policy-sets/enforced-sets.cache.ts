import { Injectable } from '@nestjs/common';
import { ChangeEpoch } from '../common/cache/change-epoch';
import { TtlMemo } from '../common/cache/ttl-memo';
import { AppConfig } from '../config/app-config';

/**
 * Whether any policy set is enforced on a workspace (of this project): every plan that finishes
 * asks, though most workspaces have none and sets rarely change. An entry ends with a change to
 * what its load read (policy sets, their workspaces, projects and exclusions) anywhere, and at once
 * with this process's own. Only the answer is remembered: a workspace with sets reads them whole
 * in the transaction that starts its check.
 */
@Injectable()
export class EnforcedSetsCache extends TtlMemo {
  protected override readonly tracksEveryLoad = true;

  constructor(config: AppConfig, epoch: ChangeEpoch) {
    super(config.cacheTtlMs, epoch);
  }

  any(workspaceId: string, projectId: string, load: () => Promise<boolean>): Promise<boolean> {
    return this.get(`any:${workspaceId}:${projectId}`, load);
  }
}

import { Injectable } from '@nestjs/common';
import { ChangeEpoch } from '../common/cache/change-epoch';
import { TtlMemo } from '../common/cache/ttl-memo';
import { AppConfig } from '../config/app-config';

/** One outbound trigger of a workspace: where an applied run of it queues a run. */
export interface TriggerDestination {
  triggerId: string;
  workspaceId: string;
}

/**
 * The outbound run triggers of a workspace, which every applied run asks for in the transaction
 * that records its apply, though most workspaces have none and triggers rarely change. An entry
 * ends with a change to the run_triggers table anywhere (a trigger made or deleted, a workspace
 * deleted with its triggers), and at once with this process's own.
 */
@Injectable()
export class OutboundTriggersCache extends TtlMemo {
  protected override readonly tracksEveryLoad = true;

  constructor(config: AppConfig, epoch: ChangeEpoch) {
    super(config.cacheTtlMs, epoch);
  }

  async of(
    sourceWorkspaceId: string,
    load: () => Promise<TriggerDestination[]>,
  ): Promise<TriggerDestination[]> {
    return [...(await this.get(`out:${sourceWorkspaceId}`, load))];
  }
}

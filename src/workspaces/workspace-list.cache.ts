import { Injectable } from '@nestjs/common';
import { ChangeEpoch } from '../common/cache/change-epoch';
import { TtlMemo } from '../common/cache/ttl-memo';
import { AppConfig } from '../config/app-config';

/** Where a remembered page of a workspace list starts: its offset and the first name on it. */
export interface PageAnchor {
  offset: number;
  name: string;
}

/**
 * Totals and page starts of workspace lists, remembered for CACHE_TTL_MS so that large
 * organizations do not pay a full COUNT(*) and a full index walk to a deep OFFSET on every page.
 * Entries count only under the change epoch they were read in, so no process shows a total or a page
 * boundary from before a change that has been answered, and this process none from before a write
 * of its own to a table the entry read (workspaces, team access), as soon as the statement ran.
 */
@Injectable()
export class WorkspaceListCache extends TtlMemo {
  constructor(config: AppConfig, epoch: ChangeEpoch) {
    super(config.cacheTtlMs, epoch);
  }
}

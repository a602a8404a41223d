import { Injectable } from '@nestjs/common';
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
 * WorkspacesService and TeamWorkspacesService forget everything after any change to workspaces or
 * team access in this process; other processes may show a total or a page boundary up to the TTL
 * old (a page can then start one row early or late per workspace created or deleted elsewhere).
 */
@Injectable()
export class WorkspaceListCache extends TtlMemo {
  constructor(config: AppConfig) {
    super(config.cacheTtlMs);
  }
}

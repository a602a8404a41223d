import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { ChangeEpoch } from '../cache/change-epoch';
import { TtlMemo } from '../cache/ttl-memo';

/**
 * What authentication and permission checks read from the database, remembered for a few
 * seconds: which principal a token digest stands for, what a principal may do in an
 * organization, and the organizations themselves (looked up by name or id). Nearly every request
 * needs them, and they change rarely.
 *
 * Correctness: entries count only under the access epoch they were read in (see TtlMemo and
 * ChangeEpoch), which every write that may change access advances (ChangeEpochGuard: all but the
 * routes whose Endpoint says `leaves-access-alone`), so a revoked token or a removed member is refused by every
 * process and node as soon as the change has been answered, while writes to policies, workspaces,
 * the registry and the like leave tokens and rights remembered. In this process an entry ends as
 * soon as a statement writes a table its load read (tokens, users, teams, memberships,
 * organizations, agent tokens: noted by the statement tracking, see TtlMemo), so no service
 * forgets anything by hand. `CACHE_TTL_MS` (default 5 s) bounds an entry's life; 0 turns the
 * cache off.
 */
@Injectable()
export class AuthCache extends TtlMemo {
  constructor(config: AppConfig, epoch: ChangeEpoch) {
    super(config.cacheTtlMs, epoch, undefined, 'access');
  }
}

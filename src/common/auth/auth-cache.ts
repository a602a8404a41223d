import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { TtlMemo } from '../cache/ttl-memo';

/**
 * What authentication and permission checks read from the database, remembered for a few
 * seconds: which principal a token digest stands for, what a principal may do in an
 * organization, and the organizations themselves (looked up by name or id). Nearly every request
 * needs them, and they change rarely.
 *
 * Correctness: services that change tokens, teams, memberships or organizations call
 * `invalidate()` once their transaction has committed, so this process answers from the new state
 * at once. Other processes and nodes keep their entries until they expire: `CACHE_TTL_MS`
 * (default 5 s) is how long a revoked token or a removed member may still be honoured there.
 * 0 turns the cache off.
 */
@Injectable()
export class AuthCache extends TtlMemo {
  constructor(config: AppConfig) {
    super(config.cacheTtlMs);
  }
}

import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { AUTH_KIND, AuthKind } from '../common/auth/auth-kind';
import { ChangeEpoch, EpochScope } from '../common/cache/change-epoch';
import { requestContext } from '../common/request-context';
import { LEAVES_ACCESS_ALONE, UNCHANGED_WHEN } from './write-effects';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Nothing to announce: refused before any work (401, 429), or the database is away (503), where
 * the advance would fail as well.
 */
const NOTHING_TO_ANNOUNCE = new Set([401, 429, 503]);

/**
 * The first guard. A request that may change state advances the shared change epoch once its
 * handler is done and before its answer is written; an authenticated request learns the current
 * epoch before authentication reads through the caches (see ChangeEpoch for why that is enough).
 */
@Injectable()
export class ChangeEpochGuard implements CanActivate {
  constructor(
    private readonly epoch: ChangeEpoch,
    private readonly reflector: Reflector,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const http = context.switchToHttp();
    const targets = [context.getHandler(), context.getClass()];
    const write = !READS.has(http.getRequest<{ method: string }>().method);
    const unchanged = write
      ? (this.reflector.get<number[] | undefined>(UNCHANGED_WHEN, context.getHandler()) ?? [])
      : [];
    // The audit trail leaves out the same answers (a poll that found no work, a heartbeat).
    if (write) requestContext(http.getRequest<object>()).unchangedWhen = unchanged;
    if (!this.epoch.enabled) return true;
    if (write) {
      const dataOnly = this.reflector.getAllAndOverride<boolean>(LEAVES_ACCESS_ALONE, targets);
      advanceBeforeAnswer(
        http.getResponse<Response>(),
        this.epoch,
        dataOnly ? 'changes' : 'access',
        unchanged,
      );
    }
    // Routes not authenticated by an API token (public, signed links, executors) sync for themselves if at all.
    const kind = this.reflector.getAllAndOverride<AuthKind | undefined>(AUTH_KIND, targets) ?? 'user';
    if (kind !== 'user') return true;
    return this.epoch.syncFor(http.getRequest<Request>()).then(() => true);
  }
}

/**
 * Holds back `res.end` until the epoch has advanced, so the client (and anyone it tells) cannot
 * read from a cache made before the change. Every answer, success or error, ends through
 * `res.end`. An advance that fails (the database went away) is logged and lets the answer go:
 * the caches' TTL bounds what other processes may still hold.
 */
function advanceBeforeAnswer(
  res: Response,
  epoch: ChangeEpoch,
  scope: EpochScope,
  unchanged: readonly number[],
): void {
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.end = ((...args: unknown[]) => {
    res.end = end as Response['end'];
    if (NOTHING_TO_ANNOUNCE.has(res.statusCode) || unchanged.includes(res.statusCode)) return end(...args);
    epoch.advance(scope).then(
      () => end(...args),
      (err: unknown) => {
        logger.warn(`could not announce a change to other processes: ${String(err)}`);
        end(...args);
      },
    );
    return res;
  }) as Response['end'];
}

const logger = new Logger('ChangeEpoch');

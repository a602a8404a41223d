import { CanActivate, ExecutionContext, Injectable, Logger, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { IS_PUBLIC } from '../auth/public.decorator';
import { ChangeEpoch, EpochScope } from './change-epoch';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Nothing to announce: refused before any work (401, 429), or the database is away (503), where
 * the advance would fail as well.
 */
const NOTHING_TO_ANNOUNCE = new Set([401, 429, 503]);

/** True: the route's writes leave access alone; false: they may change it. Every write route says one. */
export const LEAVES_ACCESS_ALONE = 'plinth:leaves-access-alone';

/**
 * On a controller (or route) whose writes cannot change what a token stands for or what a
 * principal may do: its writes advance only the `changes` epoch, so every process keeps its
 * remembered tokens and rights (AuthCache) across them. Without it a write advances both: the
 * safe default for anything that touches tokens, users, teams, memberships or organizations.
 */
export const LeavesAccessAlone = (): MethodDecorator & ClassDecorator =>
  SetMetadata(LEAVES_ACCESS_ALONE, true);

const UNCHANGED_WHEN = 'plinth:unchanged-when';

/**
 * On a write route whose answers with these statuses changed nothing any reader can see (an
 * executor's poll that found no work, a heartbeat): those answers do not advance the epoch, so
 * frequent polling leaves every cache warm. Any other answer advances it as usual.
 */
export const UnchangedWhen = (...statuses: number[]): MethodDecorator =>
  SetMetadata(UNCHANGED_WHEN, statuses);

/**
 * On a controller (or route) whose writes may change what a token stands for or what a principal
 * may do (tokens, users, teams, memberships, organizations): they advance both epochs, so every
 * process forgets its remembered tokens and rights. write-effects.spec.ts fails on a write route
 * that declares neither this nor LeavesAccessAlone.
 */
export const ChangesAccess = (): MethodDecorator & ClassDecorator => SetMetadata(LEAVES_ACCESS_ALONE, false);

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
    if (!this.epoch.enabled) return true;
    const http = context.switchToHttp();
    const targets = [context.getHandler(), context.getClass()];
    if (!READS.has(http.getRequest<{ method: string }>().method)) {
      const dataOnly = this.reflector.getAllAndOverride<boolean>(LEAVES_ACCESS_ALONE, targets);
      const unchanged = this.reflector.get<number[] | undefined>(UNCHANGED_WHEN, context.getHandler()) ?? [];
      advanceBeforeAnswer(
        http.getResponse<Response>(),
        this.epoch,
        dataOnly ? 'changes' : 'access',
        unchanged,
      );
    }
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets);
    if (isPublic) return true;
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

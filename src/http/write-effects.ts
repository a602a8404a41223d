import { SetMetadata } from '@nestjs/common';

/*
 * How a write route declares its effect on the shared change epochs (docs/architecture.md).
 * ChangeEpochGuard reads these marks; write-effects.spec.ts fails on a write route without one.
 */

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

export const UNCHANGED_WHEN = 'plinth:unchanged-when';

/**
 * On a write route whose answers with these statuses changed nothing any reader can see (an
 * executor's poll that found no work, a heartbeat): those answers do not advance the epoch, so
 * frequent polling leaves every cache warm. Any other answer advances it as usual.
 */
export const UnchangedWhen = (...statuses: number[]): MethodDecorator =>
  SetMetadata(UNCHANGED_WHEN, statuses);

const unchangedOfRequest = new WeakMap<object, readonly number[]>();

/** Set by ChangeEpochGuard: the statuses with which this request's route changes nothing. */
export function noteUnchangedWhen(req: object, statuses: readonly number[]): void {
  if (statuses.length) unchangedOfRequest.set(req, statuses);
}

/** True when the request was answered with a status its route declared as changing nothing. */
export function answeredUnchanged(req: object, status: number): boolean {
  return unchangedOfRequest.get(req)?.includes(status) ?? false;
}

/**
 * On a controller (or route) whose writes may change what a token stands for or what a principal
 * may do (tokens, users, teams, memberships, organizations): they advance both epochs, so every
 * process forgets its remembered tokens and rights. write-effects.spec.ts fails on a write route
 * that declares neither this nor LeavesAccessAlone.
 */
export const ChangesAccess = (): MethodDecorator & ClassDecorator => SetMetadata(LEAVES_ACCESS_ALONE, false);

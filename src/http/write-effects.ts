/*
 * How a write route declares its effect on the shared change epochs (docs/architecture.md).
 * Set by a route's Endpoint (endpoint.ts); ChangeEpochGuard reads them; write-effects.spec.ts fails on a
 * write route without an effect.
 */

/**
 * True: the route's writes leave access alone; false: they may change it. Every write route says
 * one through its Endpoint's `effect`.
 */
export const LEAVES_ACCESS_ALONE = 'plinth:leaves-access-alone';

/** The statuses with which a write route changes nothing (its Endpoint's `unchangedWhen`). */
export const UNCHANGED_WHEN = 'plinth:unchanged-when';

const unchangedOfRequest = new WeakMap<object, readonly number[]>();

/** Set by ChangeEpochGuard: the statuses with which this request's route changes nothing. */
export function noteUnchangedWhen(req: object, statuses: readonly number[]): void {
  if (statuses.length) unchangedOfRequest.set(req, statuses);
}

/** True when the request was answered with a status its route declared as changing nothing. */
export function answeredUnchanged(req: object, status: number): boolean {
  return unchangedOfRequest.get(req)?.includes(status) ?? false;
}

/*
 * How a write route declares its effect on the shared change epochs (docs/architecture.md).
 * Set by a route's Endpoint (endpoint.ts); ChangeEpochGuard reads them (and notes `unchangedWhen`
 * in the request's RequestContext for the audit trail); write-effects.spec.ts fails on a write
 * route without an effect.
 */

/**
 * True: the route's writes leave access alone; false: they may change it. Every write route says
 * one through its Endpoint's `effect`.
 */
export const LEAVES_ACCESS_ALONE = 'plinth:leaves-access-alone';

/** The statuses with which a write route changes nothing (its Endpoint's `unchangedWhen`). */
export const UNCHANGED_WHEN = 'plinth:unchanged-when';

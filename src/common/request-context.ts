import type { NextFunction, Request, Response } from 'express';
import type { OrganizationAccess, Principal } from './auth/principal';
import type { ResourceIdentifier } from './jsonapi/document';
import type { PreparedBody } from './jsonapi/prepared-body';

/** What a write acted on, in the audit trail's terms, where neither its route nor its answer says. */
export interface WriteTarget {
  resourceType: string;
  resourceId: string;
  action: string;
}

/** Where a request that missed the response cache keeps its answer. */
export interface ResponseSlot {
  keep(body: PreparedBody): void;
}

const CONTEXT = Symbol('request-context');

type Carrier = { [CONTEXT]?: RequestContext };

const NONE: readonly number[] = [];

/**
 * What the pipeline learns about one request on its way, for whoever needs it later in the same
 * request: one object per request, made by the first middleware (`openRequestContext`) and
 * reached from the request (`requestContext(req)`) or from the principal the request
 * authenticated as (`contextOf(principal)`). Each field says who writes it and who reads it.
 * Nothing here outlives its request: the object goes with the request, and the principal that
 * leads here is the request's own copy (`actAs`).
 */
export class RequestContext {
  /**
   * The read of the change-epoch counters this request waits for, made by the first to ask
   * (`ChangeEpoch.syncFor`: the response cache before routing, ChangeEpochGuard, or
   * AgentAuthService on the executor routes); the later ones get the same read.
   */
  epochRead: Promise<void> | undefined = undefined;

  /**
   * Where a GET the response cache may keep, and did not have, leaves its answer: written by the
   * response cache middleware on a miss, filled by the Express adapter with the rendered document.
   */
  responseSlot: ResponseSlot | undefined = undefined;

  /**
   * The route template of a request answered from the response cache, which never reached the
   * router: written by the response cache middleware on a hit, read by the metrics' route label.
   */
  cachedRoute: string | undefined = undefined;

  /**
   * The statuses with which this write's route changes nothing (its Endpoint's `unchangedWhen`):
   * written by ChangeEpochGuard, read by the audit trail (AuditWatcher), which leaves those
   * answers out.
   */
  unchangedWhen: readonly number[] = NONE;

  /**
   * When the credential the request authenticated with stops working (epoch milliseconds;
   * undefined: never): written by AuthenticationGuard from the bearer strategy (`actAs`), read
   * by the response cache, whose entry lasts no longer.
   */
  credentialExpiry: number | undefined = undefined;

  /**
   * The principal's rights per organization id for this request: written and read by
   * PermissionService alone, which asks the AuthCache once per organization and request.
   */
  organizationAccess: Map<string, Promise<OrganizationAccess | null>> | undefined = undefined;

  /**
   * The organization the principal acted in: the first one PermissionService found it to be a
   * member (or site administrator) of. Written by PermissionService, read by the audit trail,
   * which files a user's event under it.
   */
  actingOrganization: string | undefined = undefined;

  /**
   * The resource a write answered with: written by the Express adapter as it writes the
   * document, read by the audit trail, which names what a create made without reading a body.
   */
  writtenResource: ResourceIdentifier | undefined = undefined;

  /**
   * What a write acted on where its path cannot say: written by the /uploads route (an upload
   * link's path holds only its signed token, which the trail never keeps, while the token's
   * claims name the resource), read by the audit trail before anything else.
   */
  writeTarget: WriteTarget | undefined = undefined;

  /**
   * The principal this request acts as, from what its bearer token stands for, which the
   * AuthCache hands to every request of the token: a copy that leads back to this context
   * (`contextOf`), so what one request learns about its principal never reaches another.
   * Called by AuthenticationGuard; notes the credential's expiry.
   */
  actAs(holder: { principal: Principal; expiresAt: number | null }): Principal {
    if (holder.expiresAt !== null) this.credentialExpiry = holder.expiresAt;
    const own = { ...holder.principal };
    Object.defineProperty(own, CONTEXT, { value: this });
    return own;
  }
}

/** The request's context: made by `openRequestContext`, or here for a request that skipped it. */
export function requestContext(req: object): RequestContext {
  return ((req as Carrier)[CONTEXT] ??= new RequestContext());
}

/**
 * The context of the request a principal acts for; undefined for a principal made outside any
 * request (a test's, or one a script builds).
 */
export function contextOf(principal: Principal): RequestContext | undefined {
  return (principal as Carrier)[CONTEXT];
}

/** The first middleware: every request has its context from the start, made in the same place. */
export function openRequestContext(req: Request, _res: Response, next: NextFunction): void {
  requestContext(req);
  next();
}

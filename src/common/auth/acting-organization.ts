import { Principal } from './principal';

const acting = new WeakMap<Principal, string>();

/**
 * The organization a request's principal acted in: the first one PermissionService found it to be
 * a member (or site administrator) of. Each request has its own principal object (BearerTokens
 * copies it), so this is per request. The audit trail files the request's event under it.
 */
export function noteActingOrganization(principal: Principal, organizationId: string): void {
  if (!acting.has(principal)) acting.set(principal, organizationId);
}

export function actingOrganizationOf(principal: Principal): string | undefined {
  if (principal.kind !== 'user') return principal.organizationId;
  return acting.get(principal);
}

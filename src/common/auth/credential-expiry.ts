import { Principal } from './principal';

/** When the credential a request's principal was resolved from stops working, if it ever does. */
const expiries = new WeakMap<Principal, number>();

export function noteCredentialExpiry(principal: Principal, expiresAt: number | null): void {
  if (expiresAt !== null) expiries.set(principal, expiresAt);
}

/** Epoch milliseconds after which the request's token no longer authenticates; undefined: never. */
export function credentialExpiry(principal: Principal): number | undefined {
  return expiries.get(principal);
}

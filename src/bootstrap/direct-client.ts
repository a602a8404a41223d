import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';

/** True for 127.0.0.0/8, ::1 and their IPv4-mapped IPv6 forms. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(v4) === 4) return v4.startsWith('127.');
  return address === '::1';
}

/**
 * Headers by which proxies and load balancers pass on who their client is (besides every
 * `X-Forwarded-*`). A request carrying any of them did not come from the peer's own machine.
 */
const FORWARDING_HEADERS = new Set([
  'forwarded',
  'via',
  'x-real-ip',
  'x-client-ip',
  'x-cluster-client-ip',
  'x-original-forwarded-for',
  'client-ip',
  'true-client-ip',
  'cf-connecting-ip',
  'fastly-client-ip',
]);

/** The first forwarding header the request carries, if any (names as Node gives them: lower case). */
export function forwardingHeader(headers: IncomingHttpHeaders): string | undefined {
  return Object.keys(headers).find((name) => name.startsWith('x-forwarded-') || FORWARDING_HEADERS.has(name));
}

/** Express's compiled `trust proxy` setting: whether the hop at `address` is a trusted proxy. */
export type TrustProxy = (address: string, hop: number) => boolean;

/**
 * Whether a request reached the server through a proxy, as far as the server can tell: it carries
 * a forwarding header, or its TCP peer is one the `trust proxy` setting names as a proxy.
 */
export function isProxied(
  peer: string | undefined,
  headers: IncomingHttpHeaders,
  trustProxy: TrustProxy | undefined,
): boolean {
  if (forwardingHeader(headers) !== undefined) return true;
  return !!peer && !!trustProxy && trustProxy(peer, 0);
}

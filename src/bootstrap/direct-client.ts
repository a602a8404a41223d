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
 * Headers by which proxies, load balancers and CDNs pass on who their client is or say they were
 * there. A request carrying any of them did not come from the peer's own machine.
 */
const FORWARDING_HEADERS = new Set([
  'forwarded',
  'forwarded-for',
  'x-forwarded',
  'via',
  'x-real-ip',
  'x-client-ip',
  'client-ip',
  'x-cluster-client-ip',
  'x-original-forwarded-for',
  'true-client-ip',
  'cf-connecting-ip',
  'cf-connecting-ipv6',
  'cf-pseudo-ipv4',
  'fastly-client-ip',
  'x-proxyuser-ip',
  'x-appengine-user-ip',
  'x-azure-clientip',
  'x-azure-socketip',
  'x-azure-fdid',
  'x-originating-ip',
  'x-remote-ip',
  'x-remote-addr',
  'proxy-client-ip',
  'wl-proxy-client-ip',
  'cloudfront-viewer-address',
  'x-amz-cf-id',
  'akamai-origin-hop',
  'x-varnish',
]);

/** Families of such headers: `X-Forwarded-*` and those Envoy adds (`X-Envoy-External-Address`, …). */
const FORWARDING_PREFIXES = ['x-forwarded-', 'x-envoy-'];

/** The first forwarding header the request carries, if any (names as Node gives them: lower case). */
export function forwardingHeader(headers: IncomingHttpHeaders): string | undefined {
  return Object.keys(headers).find(
    (name) => FORWARDING_HEADERS.has(name) || FORWARDING_PREFIXES.some((prefix) => name.startsWith(prefix)),
  );
}

/** Express's compiled `trust proxy` setting: whether the hop at `address` is a trusted proxy. */
export type TrustProxy = (address: string, hop: number) => boolean;

/**
 * Whether a request reached the server through a proxy, as far as the server can tell: it carries
 * a forwarding header, or its TCP peer is one the `trust proxy` setting names as a proxy. A proxy
 * on the same host that adds no header and is not named cannot be told from a local client.
 */
export function isProxied(
  peer: string | undefined,
  headers: IncomingHttpHeaders,
  trustProxy: TrustProxy | undefined,
): boolean {
  if (forwardingHeader(headers) !== undefined) return true;
  return !!peer && !!trustProxy && trustProxy(peer, 0);
}

/**
 * The rule of the first-administrator routes: the TCP peer is this machine (loopback), and the
 * request did not come through a proxy as far as the server can tell.
 */
export function isDirectLocalClient(
  peer: string | undefined,
  headers: IncomingHttpHeaders,
  trustProxy: TrustProxy | undefined,
): boolean {
  return isLoopback(peer) && !isProxied(peer, headers, trustProxy);
}

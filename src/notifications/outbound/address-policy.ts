import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';
import type { AllowedNetwork } from '../../config/notification-settings';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * Blocks ipaddr.js calls `unicast` but that are no public destination either: IPv4-compatible IPv6
 * (`::a.b.c.d`), the discard prefix, benchmarking, deprecated site-local, and the cloud metadata
 * address spelled out (it is link-local, refused anyway, named here so the refusal says so).
 */
const EXTRA_BLOCKS: { name: string; network: AllowedNetwork }[] = [
  { name: 'cloud metadata', network: ipaddr.parseCIDR('169.254.169.254/32') },
  { name: 'IPv4-compatible', network: ipaddr.parseCIDR('::/96') },
  { name: 'discard', network: ipaddr.parseCIDR('100::/64') },
  { name: 'benchmarking', network: ipaddr.parseCIDR('198.18.0.0/15') },
  { name: 'site-local', network: ipaddr.parseCIDR('fec0::/10') },
];

function matches(address: Address, [network, bits]: AllowedNetwork): boolean {
  return address.kind() === network.kind() && (address as ipaddr.IPv4).match(network as ipaddr.IPv4, bits);
}

/** An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) is judged as the IPv4 address it carries. */
function canonical(text: string): Address {
  const address = ipaddr.parse(text);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (address as ipaddr.IPv6).toIPv4Address();
  }
  return address;
}

/** How a refusal names ipaddr.js's ranges. */
const RANGE_NAMES: Record<string, string> = {
  linkLocal: 'link-local',
  carrierGradeNat: 'carrier-grade NAT',
  uniqueLocal: 'unique-local',
  rfc6052: 'NAT64 (RFC 6052)',
  rfc6145: 'IPv4-translated (RFC 6145)',
  ipv4Mapped: 'IPv4-mapped',
};

function described(name: string): string {
  return `${/^([aeio]|un(?!i))/i.test(name) ? 'an' : 'a'} ${name} address`;
}

/**
 * Why a delivery may not connect to `text` (an IP address), or null when it may: it is public
 * unicast, or inside a network the operator allowed. Anything ipaddr.js does not classify as
 * `unicast` is refused (loopback, private, link-local, multicast, unspecified, broadcast, CGNAT,
 * unique-local, reserved, and the IPv6 transition forms that embed IPv4 addresses), and so are the
 * few unicast blocks above.
 */
export function refusalOf(text: string, allowed: readonly AllowedNetwork[]): string | null {
  if (!isIP(text)) return 'is not an IP address';
  let address: Address;
  try {
    address = canonical(text);
  } catch {
    return 'is an address form Plinth does not judge';
  }
  if (allowed.some((network) => matches(address, network))) return null;
  const [metadata, ...others] = EXTRA_BLOCKS;
  if (matches(address, metadata.network)) return `is ${described(metadata.name)}`;
  const range = address.range();
  if (range !== 'unicast') return `is ${described(RANGE_NAMES[range] ?? range)}`;
  const extra = others.find((b) => matches(address, b.network));
  return extra ? `is ${described(extra.name)}` : null;
}

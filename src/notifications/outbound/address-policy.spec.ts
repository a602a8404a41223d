import { parseAllowedNetworks } from '../../config/notification-settings';
import { refusalOf } from './address-policy';

describe('refusalOf', () => {
  it('lets public unicast addresses through, IPv4 and IPv6', () => {
    expect(refusalOf('93.184.216.34', [])).toBeNull();
    expect(refusalOf('2606:2800:220:1:248:1893:25c8:1946', [])).toBeNull();
  });

  it.each([
    ['127.0.0.1', 'is a loopback address'],
    ['::1', 'is a loopback address'],
    ['0.0.0.0', 'is an unspecified address'],
    ['10.9.8.7', 'is a private address'],
    ['100.127.0.1', 'is a carrier-grade NAT address'],
    ['169.254.169.254', 'is a cloud metadata address'],
    ['::ffff:169.254.169.254', 'is a cloud metadata address'],
    ['::ffff:192.168.0.1', 'is a private address'],
    ['fe80::1', 'is a link-local address'],
    ['fc00::1', 'is a unique-local address'],
    ['::7f00:1', 'is an IPv4-compatible address'],
    ['::127.0.0.1', 'is an address form Plinth does not judge'],
    ['198.18.0.1', 'is a benchmarking address'],
    ['192.0.2.1', 'is a reserved address'],
    ['fec0::1', 'is a site-local address'],
  ])('refuses %s: it %s', (address, why) => {
    expect(refusalOf(address, [])).toBe(why);
  });

  it('lets the networks the operator allowed through, mapped forms included', () => {
    const allowed = parseAllowedNetworks('127.0.0.1/32, 10.0.0.0/8, fd00::/8');
    expect(refusalOf('127.0.0.1', allowed)).toBeNull();
    expect(refusalOf('::ffff:127.0.0.1', allowed)).toBeNull();
    expect(refusalOf('10.200.0.1', allowed)).toBeNull();
    expect(refusalOf('fd00::5', allowed)).toBeNull();
    expect(refusalOf('127.0.0.2', allowed)).toBe('is a loopback address');
  });

  it('refuses what is not an IP address', () => {
    expect(refusalOf('example.com', [])).toBe('is not an IP address');
  });
});

describe('parseAllowedNetworks', () => {
  it('reads CIDRs and bare addresses, and refuses anything else', () => {
    expect(parseAllowedNetworks('')).toEqual([]);
    expect(parseAllowedNetworks('192.168.1.7').map(([a, bits]) => `${a.toString()}/${bits}`)).toEqual([
      '192.168.1.7/32',
    ]);
    expect(() => parseAllowedNetworks('10.0.0.0/33')).toThrow('NOTIFICATION_ALLOWED_NETWORKS');
    expect(() => parseAllowedNetworks('intranet')).toThrow('NOTIFICATION_ALLOWED_NETWORKS');
  });
});

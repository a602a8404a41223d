import { forwardingHeader, isDirectLocalClient, isLoopback, isProxied } from './direct-client';

describe('isLoopback', () => {
  it.each(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])('accepts %s', (a) => {
    expect(isLoopback(a)).toBe(true);
  });

  it.each(['10.0.0.1', '192.168.1.1', '::ffff:10.0.0.1', 'fe80::1', '', undefined])('refuses %s', (a) => {
    expect(isLoopback(a)).toBe(false);
  });
});

describe('isProxied', () => {
  const trustLoopback = (address: string) => isLoopback(address);

  it.each([
    ['x-forwarded-for', '203.0.113.9'],
    ['x-forwarded-host', 'plinth.example'],
    ['x-forwarded-proto', 'https'],
    ['forwarded', 'for=203.0.113.9'],
    ['x-real-ip', '203.0.113.9'],
    ['via', '1.1 proxy'],
    ['true-client-ip', '203.0.113.9'],
    ['forwarded-for', '203.0.113.9'],
    ['x-forwarded', 'for=203.0.113.9'],
    ['x-client-ip', '203.0.113.9'],
    ['client-ip', '203.0.113.9'],
    ['cf-connecting-ip', '203.0.113.9'],
    ['cf-connecting-ipv6', '2001:db8::9'],
    ['fastly-client-ip', '203.0.113.9'],
    ['x-cluster-client-ip', '203.0.113.9'],
    ['x-original-forwarded-for', '203.0.113.9'],
    ['x-proxyuser-ip', '203.0.113.9'],
    ['x-envoy-external-address', '203.0.113.9'],
    ['x-envoy-expected-rq-timeout-ms', '15000'],
    ['x-azure-clientip', '203.0.113.9'],
    ['x-azure-socketip', '203.0.113.9'],
    ['x-appengine-user-ip', '203.0.113.9'],
    ['cloudfront-viewer-address', '203.0.113.9:46532'],
    ['wl-proxy-client-ip', '203.0.113.9'],
    ['x-originating-ip', '203.0.113.9'],
  ])('counts a request carrying %s as proxied, whatever its peer', (name, value) => {
    expect(isProxied('127.0.0.1', { [name]: value }, undefined)).toBe(true);
    expect(forwardingHeader({ host: 'localhost', [name]: value })).toBe(name);
  });

  it('counts a request from a peer that TRUST_PROXY names as proxied, even without headers', () => {
    expect(isProxied('127.0.0.1', {}, trustLoopback)).toBe(true);
  });

  it('counts a plain request from an untrusted peer as direct', () => {
    expect(isProxied('127.0.0.1', { host: 'localhost', 'user-agent': 'curl/8' }, undefined)).toBe(false);
    expect(isProxied('203.0.113.9', { host: 'plinth.example' }, trustLoopback)).toBe(false);
  });
});

describe('isDirectLocalClient', () => {
  it('needs a loopback peer and no sign of a proxy', () => {
    expect(isDirectLocalClient('127.0.0.1', { host: 'localhost' }, undefined)).toBe(true);
    expect(isDirectLocalClient('203.0.113.9', { host: 'plinth.example' }, undefined)).toBe(false);
    expect(isDirectLocalClient('127.0.0.1', { 'x-real-ip': '203.0.113.9' }, undefined)).toBe(false);
    expect(isDirectLocalClient('127.0.0.1', {}, (address) => isLoopback(address))).toBe(false);
    expect(isDirectLocalClient(undefined, {}, undefined)).toBe(false);
  });
});

import { ExecutionContext } from '@nestjs/common';
import { GUARDS_METADATA } from '@nestjs/common/constants';
import { BootstrapController } from './bootstrap.controller';
import { isLoopback } from './direct-client';
import { DirectClientGuard, NOT_DIRECT_DETAIL } from './direct-client.guard';

function context(remoteAddress: string, headers: Record<string, string> = {}, trustLoopback = false) {
  const req = {
    socket: { remoteAddress },
    headers,
    app: { get: () => (trustLoopback ? (address: string) => isLoopback(address) : undefined) },
  };
  return { switchToHttp: () => ({ getRequest: () => req }) } as unknown as ExecutionContext;
}

describe('DirectClientGuard', () => {
  const sut = new DirectClientGuard();
  const refused = { kind: 'not-found', items: [{ detail: NOT_DIRECT_DETAIL }] };

  it('guards both first-administrator routes, the IACT’s retrieval and its exchange, with one rule', () => {
    expect(Reflect.getMetadata(GUARDS_METADATA, BootstrapController)).toEqual([DirectClientGuard]);
    for (const handler of ['retrieveIact', 'createInitialAdmin'] as const) {
      expect(Reflect.getMetadata(GUARDS_METADATA, BootstrapController.prototype[handler])).toBeUndefined();
    }
  });

  it.each(['127.0.0.1', '127.3.2.1', '::1', '::ffff:127.0.0.1'])(
    'lets a direct client on %s through',
    (peer) => {
      expect(sut.canActivate(context(peer))).toBe(true);
    },
  );

  it.each(['203.0.113.9', '10.0.0.7', '::ffff:10.0.0.7', 'fe80::1', '2001:db8::1'])(
    'refuses a client elsewhere (%s), on either route',
    (peer) => {
      expect(() => sut.canActivate(context(peer))).toThrow(expect.objectContaining(refused));
    },
  );

  it('refuses a loopback request that carries a forwarding header or comes from a trusted proxy', () => {
    expect(() =>
      sut.canActivate(context('127.0.0.1', { 'x-envoy-external-address': '203.0.113.9' })),
    ).toThrow(expect.objectContaining(refused));
    expect(() => sut.canActivate(context('127.0.0.1', {}, true))).toThrow(expect.objectContaining(refused));
  });
});

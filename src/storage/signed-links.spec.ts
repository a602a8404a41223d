import { Clock } from '../common/clock';
import { DomainError } from '../common/errors/domain-error';
import { AppConfig } from '../config/app-config';
import { SignedLinks } from './signed-links';

describe('SignedLinks', () => {
  const config = new AppConfig({
    SIGNING_SECRET: 'signed-links-unit-test-secret-a-0123',
    DATA_DIR: '/tmp/plinth-unit',
  });
  const clock = new Clock();
  const sut = new SignedLinks(config, clock);
  const claims = { purpose: 'p', resourceId: 'r-1', expiresAt: Math.floor(Date.now() / 1000) + 60 };

  it('verifies a token it signed', () => {
    expect(sut.verify(sut.token(claims))).toEqual(claims);
  });

  it('gives the same claims the same token, and any other claims another one that verifies', () => {
    const first = sut.token(claims);
    expect(sut.token({ ...claims })).toBe(first);
    const others = [
      { ...claims, purpose: 'q' },
      { ...claims, resourceId: 'r-2' },
      { ...claims, expiresAt: claims.expiresAt + 1 },
    ];
    for (const other of others) {
      const token = sut.token(other);
      expect(token).not.toBe(first);
      expect(sut.verify(token)).toEqual(other);
    }
  });

  it('signs with its own secret: another secret does not accept its tokens', () => {
    const other = new SignedLinks(
      new AppConfig({ SIGNING_SECRET: 'signed-links-unit-test-secret-b-4567', DATA_DIR: '/tmp/plinth-unit' }),
      clock,
    );
    expect(() => other.verify(sut.token(claims))).toThrow(DomainError);
  });

  it('builds absolute URLs under the request origin when no URL is configured', () => {
    expect(sut.url('http://h:1', claims)).toMatch(/^http:\/\/h:1\/uploads\/[\w-]+\.[\w-]+$/);
  });

  it('prefers UPLOAD_URL', () => {
    const custom = new SignedLinks(
      new AppConfig({
        SIGNING_SECRET: 'signed-links-unit-test-secret-a-0123',
        UPLOAD_URL: 'https://up.example.com/',
      }),
      clock,
    );
    expect(custom.url('http://h:1', claims)).toMatch(/^https:\/\/up\.example\.com\/uploads\//);
  });

  it.each([
    [
      'a tampered payload',
      (t: string) =>
        `${Buffer.from('{"p":"p","r":"r-2","e":9999999999}').toString('base64url')}.${t.split('.')[1]}`,
    ],
    ['a tampered mac', (t: string) => `${t.split('.')[0]}.AAAA${t.split('.')[1].slice(4)}`],
    ['garbage', () => 'not-a-token'],
    ['extra segments', (t: string) => `${t}.x`],
  ])('refuses %s as not found', (_, mutate) => {
    expect(() => sut.verify(mutate(sut.token(claims)))).toThrow(
      expect.objectContaining({ kind: 'not-found' }) as Error,
    );
  });

  it('refuses a token signed with another secret', () => {
    const other = new SignedLinks(
      new AppConfig({ SIGNING_SECRET: 'signed-links-unit-test-secret-b-0123' }),
      clock,
    );
    expect(() => sut.verify(other.token(claims))).toThrow(DomainError);
  });

  it('answers gone once the link expired', () => {
    const later = new SignedLinks(config, { now: () => new Date((claims.expiresAt + 1) * 1000) });
    expect(() => later.verify(sut.token(claims))).toThrow(expect.objectContaining({ kind: 'gone' }) as Error);
  });
});

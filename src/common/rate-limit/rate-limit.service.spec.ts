import { AppConfig } from '../../config/app-config';
import { principalCost, principalKey, WRITE_COST } from './rate-limit.http';
import { RateLimitService } from './rate-limit.service';

async function service(env: Record<string, string>): Promise<RateLimitService> {
  const limits = new RateLimitService(
    new AppConfig({ SIGNING_SECRET: 'rate-limit-unit-test-signing-secret', ...env }),
  );
  await limits.onModuleInit();
  return limits;
}

describe('RateLimitService', () => {
  it('grants the configured number of points per key and second, then refuses with the time to reset', async () => {
    const limits = await service({ RATE_LIMIT_PER_SECOND: '3' });
    expect(limits.store).toBe('memory');
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limits.consume('user:a'));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(decisions[3].resetSeconds).toBeGreaterThan(0);
    expect(decisions[3].resetSeconds).toBeLessThanOrEqual(1);
  });

  it('keeps a separate budget for every key', async () => {
    const limits = await service({ RATE_LIMIT_PER_SECOND: '1' });
    expect((await limits.consume('user:a')).allowed).toBe(true);
    expect((await limits.consume('user:a')).allowed).toBe(false);
    expect((await limits.consume('user:b')).allowed).toBe(true);
    expect((await limits.consume('ip:127.0.0.1')).allowed).toBe(true);
  });

  it('spends as many points as a request costs', async () => {
    const limits = await service({ RATE_LIMIT_PER_SECOND: '10' });
    expect((await limits.consume('user:a', 5)).allowed).toBe(true);
    expect((await limits.consume('user:a', 5)).allowed).toBe(true);
    expect((await limits.consume('user:a', 1)).allowed).toBe(false);
  });

  it('allows everything when the limit is 0', async () => {
    const limits = await service({ RATE_LIMIT_PER_SECOND: '0' });
    expect(limits.enabled).toBe(false);
    for (let i = 0; i < 50; i++) expect((await limits.consume('user:a')).allowed).toBe(true);
  });

  it('chooses Redis when REDIS_URL is set', () => {
    const limits = new RateLimitService(
      new AppConfig({
        SIGNING_SECRET: 'rate-limit-unit-test-signing-secret',
        REDIS_URL: 'redis://127.0.0.1:6379',
      }),
    );
    expect(limits.store).toBe('redis');
  });
});

describe('principalKey', () => {
  it('counts a user across all of their tokens, team and organization tokens per owner', () => {
    const user = { kind: 'user', userId: 'user-1', username: 'u', isSiteAdmin: false } as const;
    expect(principalKey({ ...user, tokenId: 'at-1' })).toBe(principalKey({ ...user, tokenId: 'at-2' }));
    expect(principalKey({ ...user, tokenId: 'at-1' })).toBe('user:user-1');
    expect(principalKey({ kind: 'team', tokenId: 'at-3', teamId: 'team-1', organizationId: 'acme' })).toBe(
      'team:team-1',
    );
    expect(principalKey({ kind: 'organization', tokenId: 'at-4', organizationId: 'acme' })).toBe('org:acme');
  });
});

describe('principalCost', () => {
  it('charges a read one point and a write WRITE_COST at the default budget and above', () => {
    expect(WRITE_COST).toBe(5);
    for (const method of ['GET', 'HEAD', 'OPTIONS']) expect(principalCost(method, 30)).toBe(1);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) expect(principalCost(method, 30)).toBe(5);
    expect(principalCost('POST', 1000)).toBe(5);
  });

  it('charges a write a sixth of a smaller budget, never less than a point', () => {
    expect(principalCost('POST', 24)).toBe(4);
    expect(principalCost('POST', 12)).toBe(2);
    expect(principalCost('POST', 11)).toBe(1);
    expect(principalCost('POST', 3)).toBe(1);
    expect(principalCost('POST', 1)).toBe(1);
  });
});

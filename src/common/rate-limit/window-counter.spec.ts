import { RateLimiterAbstract, RateLimiterMemory } from 'rate-limiter-flexible';
import { AppConfig } from '../../config/app-config';
import { RateLimitService } from './rate-limit.service';
import { StoreWindowCounter, UNLIMITED_POINTS } from './window-counter';

const options = { points: UNLIMITED_POINTS, duration: 60, keyPrefix: 'test' };

describe('window counters', () => {
  it('give every add its own count, take points back and forget keys', async () => {
    const limits = new RateLimitService(
      new AppConfig({
        SIGNING_SECRET: 'window-counter-unit-test-signing-secret',
        RATE_LIMIT_PER_SECOND: '0',
      }),
    );
    await limits.onModuleInit();
    const counter = limits.counter('test', 60);
    const counts = await Promise.all(Array.from({ length: 5 }, () => counter.add('k')));
    expect(counts.map((c) => c.count).sort()).toEqual([1, 2, 3, 4, 5]);
    for (const c of counts) expect(c.msLeft).toBeLessThanOrEqual(60_000);
    await counter.takeBack('k');
    expect((await counter.add('k')).count).toBe(5);
    expect((await counter.add('other')).count).toBe(1);
    await counter.clear('k');
    expect((await counter.add('k')).count).toBe(1);
  });

  it('count in the process while the shared store fails, and in the store again once it answers', async () => {
    const local = new RateLimiterMemory(options);
    const store = new RateLimiterMemory({ ...options, keyPrefix: 'store' });
    let down = true;
    const shared = (): RateLimiterAbstract => {
      if (down) throw new Error('store unreachable');
      return store;
    };
    const counter = new StoreWindowCounter('test', shared, local);
    expect((await counter.add('k')).count).toBe(1);
    expect((await counter.add('k')).count).toBe(2);
    down = false;
    expect((await counter.add('k')).count).toBe(1);
    expect((await local.get('k'))?.consumedPoints).toBe(2);
  });
});

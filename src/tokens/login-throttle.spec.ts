import type { WindowCount, WindowCounter } from '../common/rate-limit/window-counter';
import { accountKey, addressGroup, Admission, laneWaitMs, LoginThrottle } from './login-throttle';

/** Fixed windows in a Map, on a clock the test moves. */
class Clock {
  now = 1_000_000;
  counter = (_name: string, seconds: number): WindowCounter => {
    const windows = new Map<string, { count: number; endsAt: number }>();
    const current = (key: string) => {
      const w = windows.get(key);
      return w && w.endsAt > this.now ? w : undefined;
    };
    return {
      add: (key: string): Promise<WindowCount> => {
        const w = current(key) ?? { count: 0, endsAt: this.now + seconds * 1000 };
        w.count += 1;
        windows.set(key, w);
        return Promise.resolve({ count: w.count, msLeft: w.endsAt - this.now });
      },
      takeBack: (key: string) => {
        const w = current(key);
        if (w) w.count -= 1;
        return Promise.resolve();
      },
      clear: (key: string) => {
        windows.delete(key);
        return Promise.resolve();
      },
    };
  };
}

const SETTINGS = { attemptsPerMinute: 100, maxFailures: 3, windowSeconds: 900 };

function setup(settings = SETTINGS) {
  const clock = new Clock();
  return { clock, throttle: new LoginThrottle(clock.counter, settings) };
}

const waits = (answers: Admission[]) => answers.map((a) => (a.admitted ? 0 : a.retryAfterSeconds));

async function attempts(throttle: LoginThrottle, n: number, from: string, username: string) {
  const answers: Admission[] = [];
  for (let i = 0; i < n; i++) answers.push(await throttle.admit(from, username));
  return answers;
}

describe('LoginThrottle', () => {
  it('refuses an address after its failures against one username, for the rest of the window', async () => {
    const { clock, throttle } = setup();
    expect(waits(await attempts(throttle, 5, '10.0.0.1', 'alice'))).toEqual([0, 0, 0, 900, 900]);
    clock.now += 300_000;
    expect(waits(await attempts(throttle, 1, '10.0.0.1', 'alice'))).toEqual([600]);
    // Another username is open to that address, and the username to other addresses.
    expect(waits(await attempts(throttle, 1, '10.0.0.1', 'bob'))).toEqual([0]);
    expect(waits(await attempts(throttle, 1, '10.0.0.2', 'alice'))).toEqual([0]);
    clock.now += 600_000;
    expect(waits(await attempts(throttle, 1, '10.0.0.1', 'alice'))).toEqual([0]);
  });

  it('checks a username’s guesses from other addresses at doubling gaps once the allowance is spent', async () => {
    const { clock, throttle } = setup();
    // Each address's first attempt is in the lane of new addresses: three at once, then after 1 s, 3 s…
    const first = [];
    for (let i = 1; i <= 5; i++) first.push(await throttle.admit(`10.0.1.${i}`, 'alice'));
    expect(waits(first)).toEqual([0, 0, 0, 1, 1]);
    clock.now += 1000;
    expect(waits([await throttle.admit('10.0.1.4', 'alice')])).toEqual([0]);
    expect(waits([await throttle.admit('10.0.1.5', 'alice')])).toEqual([2]);
    clock.now += 2000;
    expect(waits([await throttle.admit('10.0.1.5', 'alice')])).toEqual([0]);
  });

  it('keeps a stranger’s failures from addresses of their own out of the owner’s way', async () => {
    const { throttle } = setup();
    for (const from of ['10.0.2.1', '10.0.2.2']) await attempts(throttle, 4, from, 'alice');
    // The stranger's second lane is spent; the owner's new address is checked at once.
    expect(waits(await attempts(throttle, 1, '10.0.2.1', 'alice'))).toEqual([900]);
    expect(waits(await attempts(throttle, 1, '10.0.2.3', 'alice'))).toEqual([0]);
  });

  it('gives back an admitted attempt whose password was right, and clears its address’s failures', async () => {
    const { throttle } = setup();
    await attempts(throttle, 2, '10.0.3.1', 'alice');
    const right = await throttle.admit('10.0.3.1', 'alice');
    if (!right.admitted) throw new Error('expected an admission');
    await throttle.succeeded(right.ticket);
    expect(waits(await attempts(throttle, 4, '10.0.3.1', 'alice'))).toEqual([0, 0, 0, 900]);
  });

  it('counts a refused attempt in no lane: hammering does not push the next check later', async () => {
    const { clock, throttle } = setup();
    for (let i = 1; i <= 3; i++) await throttle.admit(`10.0.4.${i}`, 'alice');
    for (let i = 0; i < 20; i++) await throttle.admit(`10.0.5.${i}`, 'alice');
    clock.now += 1000;
    expect(waits([await throttle.admit('10.0.6.1', 'alice')])).toEqual([0]);
  });

  it('limits one address’s attempts a minute, whatever the usernames', async () => {
    const { clock, throttle } = setup({ ...SETTINGS, attemptsPerMinute: 3 });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await throttle.admit('10.0.7.1', `user-${i}`));
    expect(waits(answers)).toEqual([0, 0, 0, 60]);
    clock.now += 60_000;
    expect(waits([await throttle.admit('10.0.7.1', 'user-9')])).toEqual([0]);
  });

  it('counts a username alike whatever its case', async () => {
    const { throttle } = setup();
    const spellings = ['alice', 'Alice', 'ALICE', 'aLiCe', 'alicE'];
    expect(waits(await Promise.all(spellings.map((u) => throttle.admit('10.0.8.1', u))))).toEqual([
      0, 0, 0, 900, 900,
    ]);
  });
});

describe('laneWaitMs', () => {
  it('lets the allowance through at once, then opens the k-th further check at 2^k − 1 seconds', () => {
    expect([1, 2, 3].map((n) => laneWaitMs(n, 0, 3))).toEqual([0, 0, 0]);
    expect([4, 5, 6, 7].map((n) => laneWaitMs(n, 0, 3))).toEqual([1000, 3000, 7000, 15000]);
    expect(laneWaitMs(5, 2500, 3)).toBe(500);
    expect(laneWaitMs(5, 3000, 3)).toBe(0);
    expect(Number.isFinite(laneWaitMs(5000, 0, 3))).toBe(true);
  });
});

describe('addressGroup', () => {
  it('keeps IPv4 addresses, IPv4-mapped ones included, and groups IPv6 by /64', () => {
    expect(addressGroup('203.0.113.7')).toBe('203.0.113.7');
    expect(addressGroup('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressGroup('2001:db8:0:1:aaaa::1')).toBe('2001:db8:0:1::/64');
    expect(addressGroup('2001:0db8:0000:0001:ffff:ffff:ffff:ffff')).toBe('2001:db8:0:1::/64');
    expect(addressGroup('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressGroup('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
    expect(addressGroup('64:ff9b:1:2:3:4:192.0.2.1')).toBe('64:ff9b:1:2::/64');
    expect(addressGroup('unknown')).toBe('unknown');
  });
});

describe('accountKey', () => {
  it('is one short key per username whatever its case or content', () => {
    expect(accountKey('Alice')).toBe(accountKey('alice'));
    expect(accountKey('alice')).not.toBe(accountKey('bob'));
    expect(accountKey('a/b:c\n'.repeat(10))).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});

import { ClaimWaiters, parseClaimWait, WaitOutcome } from './claim-waiters';

const POOL = { poolId: 'apool-1', organizationId: 'acme', organizationScoped: false };
const SCOPED = { poolId: 'apool-2', organizationId: 'acme', organizationScoped: true };

describe('ClaimWaiters', () => {
  let sut: ClaimWaiters;
  beforeEach(() => {
    sut = new ClaimWaiters();
  });

  it('wakes the oldest waiter of the pool once per queued job; the others keep waiting', async () => {
    const first = sut.wait(POOL, 60_000);
    const second = sut.wait(POOL, 60_000);
    expect(sut.wake({ poolId: 'apool-1', organizationId: 'acme' })).toBe(1);
    await expect(first).resolves.toEqual({ woken: { poolId: 'apool-1', organizationId: 'acme' } });
    expect(sut.size).toBe(1);
    expect(sut.wake({ poolId: 'apool-1', organizationId: 'acme' }, 5)).toBe(1);
    await expect(second).resolves.toEqual({ woken: { poolId: 'apool-1', organizationId: 'acme' } });
    expect(sut.size).toBe(0);
  });

  it("wakes organization-scoped waiters for the organization's jobs without a pool, and no one else", async () => {
    const narrow = sut.wait(POOL, 60_000);
    const scoped = sut.wait(SCOPED, 60_000);
    expect(sut.wake({ poolId: null, organizationId: 'other' })).toBe(0);
    expect(sut.wake({ poolId: 'apool-9', organizationId: 'acme' })).toBe(0);
    expect(sut.wake({ poolId: null, organizationId: 'acme' })).toBe(1);
    await expect(scoped).resolves.toEqual({ woken: { poolId: null, organizationId: 'acme' } });
    expect(sut.size).toBe(1);
    sut.close();
    await expect(narrow).resolves.toBe('closed');
  });

  it('ends a wait when its time is up or its signal aborts, and takes it out', async () => {
    const gone = new AbortController();
    const aborted = sut.wait(POOL, 60_000, gone.signal);
    const timed = sut.wait(SCOPED, 10);
    gone.abort();
    const outcomes: WaitOutcome[] = await Promise.all([aborted, timed]);
    expect(outcomes).toEqual(['timeout', 'timeout']);
    expect(sut.size).toBe(0);
    expect(sut.wake({ poolId: 'apool-1', organizationId: 'acme' })).toBe(0);
  });

  it('tells a claim that read the queue whether a job of its scope was queued meanwhile', () => {
    const mark = sut.mark(SCOPED);
    sut.wake({ poolId: 'apool-1', organizationId: 'acme' });
    expect(sut.wokenSince(SCOPED, mark)).toBe(false);
    sut.wake({ poolId: null, organizationId: 'acme' });
    expect(sut.wokenSince(SCOPED, mark)).toBe(true);
    expect(sut.wokenSince(POOL, sut.mark(POOL))).toBe(false);
  });

  it('refuses new waits once closed', async () => {
    sut.close();
    await expect(sut.wait(POOL, 60_000)).resolves.toBe('closed');
    expect(sut.isClosed).toBe(true);
  });
});

describe('parseClaimWait', () => {
  it.each([
    [undefined, 0],
    ['', 0],
    ['0', 0],
    ['30', 30],
    ['31', null],
    ['-1', null],
    ['2.5', null],
    ['1e1', null],
    [['1', '2'], null],
  ])('reads %j as %j with a cap of 30', (raw, expected) => {
    expect(parseClaimWait(raw, 30)).toBe(expected);
  });
});

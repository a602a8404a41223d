import { ChangeEpoch } from './change-epoch';
import { TtlMemo } from './ttl-memo';

const cache = (ttlMs: number, maxEntries?: number) => new TtlMemo(ttlMs, undefined, maxEntries);

describe(TtlMemo.name, () => {
  afterEach(() => jest.useRealTimers());

  it('loads once within the time to live and again after it', async () => {
    jest.useFakeTimers({ now: 0 });
    const sut = cache(5_000);
    const load = jest.fn().mockResolvedValue('answer');
    expect(await sut.get('k', load)).toBe('answer');
    jest.setSystemTime(4_999);
    expect(await sut.get('k', load)).toBe('answer');
    expect(load).toHaveBeenCalledTimes(1);
    jest.setSystemTime(5_000);
    await sut.get('k', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('shares one load between concurrent callers', async () => {
    const sut = cache(5_000);
    let release: (v: string) => void = () => undefined;
    const load = jest.fn(() => new Promise<string>((resolve) => (release = resolve)));
    const both = Promise.all([sut.get('k', load), sut.get('k', load)]);
    release('once');
    expect(await both).toEqual(['once', 'once']);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('forgets everything on invalidate, including a load still in flight', async () => {
    const sut = cache(5_000);
    let release: (v: string) => void = () => undefined;
    const stale = sut.get('k', () => new Promise<string>((resolve) => (release = resolve)));
    sut.invalidate();
    const fresh = sut.get('k', async () => 'after the change');
    release('before the change');
    expect(await stale).toBe('before the change');
    expect(await fresh).toBe('after the change');
    expect(await sut.get('k', async () => 'reloaded')).toBe('after the change');
  });

  it('does not remember failed loads', async () => {
    const sut = cache(5_000);
    await expect(sut.get('k', () => Promise.reject(new Error('database away')))).rejects.toThrow('away');
    expect(await sut.get('k', async () => 'back')).toBe('back');
  });

  it('forgets a single key', async () => {
    const sut = cache(5_000);
    await sut.get('a', async () => 1);
    await sut.get('b', async () => 2);
    sut.forget('a');
    expect(await sut.get('a', async () => 10)).toBe(10);
    expect(await sut.get('b', async () => 20)).toBe(2);
  });

  it('loads every time when turned off', async () => {
    const sut = cache(0);
    const load = jest.fn().mockResolvedValue('x');
    await sut.get('k', load);
    await sut.get('k', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('keeps values set directly for the time to live', () => {
    jest.useFakeTimers({ now: 0 });
    const sut = cache(1_000);
    sut.set('anchor', { offset: 100 });
    expect(sut.peek('anchor')).toEqual({ offset: 100 });
    jest.setSystemTime(1_000);
    expect(sut.peek('anchor')).toBeUndefined();
  });

  it('pushes out the oldest entry when full', () => {
    const sut = cache(1_000, 2);
    sut.set('a', 1);
    sut.set('b', 2);
    sut.set('c', 3);
    expect([sut.peek('a'), sut.peek('b'), sut.peek('c')]).toEqual([undefined, 2, 3]);
  });

  it('counts an entry only while the change epoch is the one its load started under', async () => {
    let stored = 0;
    const epoch = new ChangeEpoch({
      read: () => Promise.resolve({ changes: stored, access: 0 }),
      advance: async () => ++stored,
    });
    await epoch.sync();
    const sut = new TtlMemo(60_000, epoch);
    const load = jest.fn(() => Promise.resolve('rights'));
    await sut.get('k', load);
    await sut.get('k', load);
    expect(load).toHaveBeenCalledTimes(1);
    // Another process answered a write; this one learns of it with its next sync.
    stored++;
    await sut.get('k', load);
    expect(load).toHaveBeenCalledTimes(1);
    await epoch.sync();
    await sut.get('k', load);
    expect(load).toHaveBeenCalledTimes(2);
    const since = sut.since();
    await epoch.advance();
    sut.set('late', 'computed before the change', since);
    expect(sut.peek('late')).toBeUndefined();
  });

  it('in the access scope, keeps its entries across writes that leave access alone', async () => {
    const stored = { changes: 0, access: 0 };
    const epoch = new ChangeEpoch({
      read: () => Promise.resolve({ ...stored }),
      advance: async (scope) => ++stored[scope],
    });
    await epoch.sync();
    const sut = new TtlMemo(60_000, epoch, undefined, 'access');
    const load = jest.fn(() => Promise.resolve('principal'));
    await sut.get('token', load);
    await epoch.advance();
    stored.changes++;
    await epoch.sync();
    await sut.get('token', load);
    expect(load).toHaveBeenCalledTimes(1);
    await epoch.advance('access');
    await sut.get('token', load);
    expect(load).toHaveBeenCalledTimes(2);
  });
});

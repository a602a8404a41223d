import { ChangeEpoch } from './change-epoch';
import { MemoryEpochStore } from './memory-epoch-store.testing';
import { currentReadSet, ReadSet, trackReads } from './read-set';
import { TtlMemo } from './ttl-memo';

const cache = (ttlMs: number, maxEntries?: number) => new TtlMemo(ttlMs, undefined, maxEntries);

/** The change epoch over counters kept in memory, read once. */
async function syncedEpoch(): Promise<{ store: MemoryEpochStore; epoch: ChangeEpoch }> {
  const store = new MemoryEpochStore();
  const epoch = new ChangeEpoch(store);
  await epoch.sync();
  return { store, epoch };
}

/** A load that reads `table` (noted as its query would note it) and answers `value`. */
const loadReading = <T>(table: string, value: T) =>
  jest.fn(() => {
    currentReadSet()?.add([table]);
    return Promise.resolve(value);
  });

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

  it('peekSettled hands an entry over only once its load has ended, and never a failed one', async () => {
    const sut = cache(5_000);
    let release: (v: string) => void = () => undefined;
    const pending = sut.get('k', () => new Promise<string>((resolve) => (release = resolve)));
    expect(sut.peek('k')).toBeDefined();
    expect(sut.peekSettled('k')).toBeUndefined();
    release('done');
    await pending;
    expect(await sut.peekSettled<Promise<string>>('k')).toBe('done');
    const failed = sut.get('f', () => Promise.reject(new Error('database away')));
    await expect(failed).rejects.toThrow('database away');
    expect(sut.peekSettled('f')).toBeUndefined();
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

  it('does not remember failed loads', async () => {
    const sut = cache(5_000);
    await expect(sut.get('k', () => Promise.reject(new Error('database away')))).rejects.toThrow('away');
    expect(await sut.get('k', async () => 'back')).toBe('back');
  });

  it('hands a null answer to its waiting callers without remembering it', async () => {
    const sut = cache(5_000);
    let release: (v: string | null) => void = () => undefined;
    const load = jest.fn(() => new Promise<string | null>((resolve) => (release = resolve)));
    const both = Promise.all([sut.getPresent('k', load), sut.getPresent('k', load)]);
    release(null);
    expect(await both).toEqual([null, null]);
    expect(await sut.getPresent('k', async () => 'found')).toBe('found');
    expect(await sut.getPresent('k', async () => 'again')).toBe('found');
    expect(load).toHaveBeenCalledTimes(1);
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

  it('counts an entry only while no table its load read has changed', async () => {
    const { store, epoch } = await syncedEpoch();
    const sut = new TtlMemo(60_000, epoch);
    const load = loadReading('workspaces', 'page');
    const tracked = () => trackReads(new ReadSet(), () => sut.get('k', load));
    await tracked();
    await tracked();
    expect(load).toHaveBeenCalledTimes(1);
    // Another process answered a write elsewhere: the entry stands.
    store.changedElsewhere('policy_sets');
    await epoch.sync();
    await tracked();
    expect(load).toHaveBeenCalledTimes(1);
    // ...and to the table it read: learnt with the next sync, the entry ends.
    store.changedElsewhere('workspaces');
    await tracked();
    expect(load).toHaveBeenCalledTimes(1);
    await epoch.sync();
    await tracked();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('hands what an entry read to the tracked computations that use it, pending or not', async () => {
    const { epoch } = await syncedEpoch();
    const sut = new TtlMemo(60_000, epoch);
    let finish!: (v: string) => void;
    const load = () => {
      currentReadSet()?.add(['projects']);
      return new Promise<string>((r) => (finish = r));
    };
    const [first, second, later] = [new ReadSet(), new ReadSet(), new ReadSet()];
    const a = trackReads(first, () => sut.get('k', load));
    const b = trackReads(second, () => sut.get('k', load));
    finish('counts');
    await Promise.all([a, b]);
    await trackReads(later, () => sut.get('k', load));
    expect([first, second, later].map((r) => [...r.tables])).toEqual([
      ['projects'],
      ['projects'],
      ['projects'],
    ]);
  });

  it('ends an entry loaded outside a tracked computation with any change, and says so to its users', async () => {
    const { store, epoch } = await syncedEpoch();
    const sut = new TtlMemo(60_000, epoch);
    const load = jest.fn(() => Promise.resolve('v'));
    await sut.get('k', load);
    const user = new ReadSet();
    await trackReads(user, () => sut.get('k', load));
    expect(user.unknown).toBe(true);
    store.changedElsewhere('anything');
    await epoch.sync();
    await sut.get('k', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('does not keep a value computed before a change it read', async () => {
    const { store, epoch } = await syncedEpoch();
    const sut = new TtlMemo(60_000, epoch);
    const { value, stamp } = trackReads(new ReadSet(), () =>
      sut.loadNoting(() => {
        currentReadSet()?.add(['projects']);
        return Promise.resolve(3);
      }),
    );
    store.changedElsewhere('projects');
    await epoch.sync();
    sut.set('late', await value, stamp);
    expect(sut.peek('late')).toBeUndefined();
  });

  it('ends an entry at once when this process writes what its load read, before the counters are read again', async () => {
    const { epoch } = await syncedEpoch();
    const sut = new TtlMemo(60_000, epoch);
    const load = loadReading('workspaces', 'row');
    const tracked = () => trackReads(new ReadSet(), () => sut.get('k', load));
    await tracked();
    epoch.wrote(['runs', 'run_jobs']);
    await tracked();
    expect(load).toHaveBeenCalledTimes(1);
    epoch.wrote(['workspaces']);
    await tracked();
    expect(load).toHaveBeenCalledTimes(2);
    // An entry whose reads are not known ends with any write of this process.
    await sut.get('untracked', load);
    epoch.wrote(['runs']);
    await sut.get('untracked', load);
    expect(load).toHaveBeenCalledTimes(4);
  });

  it('with every load tracked, ends an entry loaded outside a tracked computation only with a change to what it read', async () => {
    class EveryLoad extends TtlMemo {
      protected override readonly tracksEveryLoad = true;
    }
    const { store, epoch } = await syncedEpoch();
    const sut = new EveryLoad(60_000, epoch);
    const load = loadReading('workspaces', 'row');
    await sut.get('k', load);
    expect(currentReadSet()).toBeUndefined();
    store.changedElsewhere('runs');
    await epoch.sync();
    await sut.get('k', load);
    expect(load).toHaveBeenCalledTimes(1);
    store.changedElsewhere('workspaces');
    await epoch.sync();
    await sut.get('k', load);
    expect(load).toHaveBeenCalledTimes(2);
    // A tracked caller still takes on what the entry read.
    const user = new ReadSet();
    await trackReads(user, () => sut.get('k', load));
    expect([...user.tables]).toEqual(['workspaces']);
  });

  it('in the access scope, keeps its entries across writes that leave access alone, and hands its reads to nobody', async () => {
    const { store, epoch } = await syncedEpoch();
    const sut = new TtlMemo(60_000, epoch, undefined, 'access');
    const load = loadReading('tokens', 'principal');
    const user = new ReadSet();
    await trackReads(user, () => sut.get('token', load));
    store.changedElsewhere('tokens', 'users');
    await epoch.sync();
    await sut.get('token', load);
    expect(load).toHaveBeenCalledTimes(1);
    store.changedElsewhere('team_members');
    store.access++;
    await epoch.sync();
    await sut.get('token', load);
    expect(load).toHaveBeenCalledTimes(2);
    expect([...user.tables]).toEqual([]);
  });

  it('in the access scope, ends an entry at once when this process writes a table its load read', async () => {
    const { epoch } = await syncedEpoch();
    const sut = new TtlMemo(60_000, epoch, undefined, 'access');
    const load = loadReading('tokens', 'principal');
    await sut.get('token', load);
    expect(currentReadSet()).toBeUndefined();
    epoch.wrote(['workspaces']);
    await sut.get('token', load);
    expect(load).toHaveBeenCalledTimes(1);
    // A revocation: no one forgets the entry by hand, the statement's note ends it.
    epoch.wrote(['tokens']);
    await sut.get('token', load);
    expect(load).toHaveBeenCalledTimes(2);
  });
});

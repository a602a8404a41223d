import { AppConfig } from '../config/app-config';
import { PreparedBody } from '../common/jsonapi/prepared-body';
import { ChangeEpoch } from '../common/cache/change-epoch';
import { MemoryEpochStore } from '../common/cache/memory-epoch-store.testing';
import { answerStandsUntil, ReadSet, trackReads } from '../common/cache/read-set';
import { Clock } from '../common/clock';
import { ResponseCache } from './response-cache';

const reading = (...tables: string[]) => {
  const reads = new ReadSet();
  reads.add(tables.length ? tables : ['policy_sets']);
  return reads;
};

const body = (json: string) => ({
  body: new PreparedBody('application/json', json),
  owner: 'user:u1',
  route: '/r',
});

function setup(cacheTtlMs = 5000, megabytes = 1) {
  const store = new MemoryEpochStore();
  const epoch = new ChangeEpoch(store);
  const cache = new ResponseCache(
    { cacheTtlMs, responseCacheBytes: megabytes * 1024 * 1024 } as AppConfig,
    epoch,
    new Clock(),
  );
  return { store, epoch, cache };
}

describe(ResponseCache.name, () => {
  afterEach(() => jest.useRealTimers());

  it('keeps an answer until a table it read changes, across changes of others', async () => {
    const { epoch, cache } = setup();
    await epoch.sync();
    cache.set('k', body('{"a":1}'), cache.since(), reading('policy_sets', 'policy_set_versions'));
    epoch.wrote(['reserved_tag_keys']);
    await epoch.flush();
    expect(cache.get('k')?.body.bytes.toString()).toBe('{"a":1}');
    epoch.wrote(['policy_set_versions']);
    await epoch.flush();
    await epoch.sync();
    expect(cache.get('k')).toBeUndefined();
  });

  it('ends every answer with a change of access', async () => {
    const { store, epoch, cache } = setup();
    await epoch.sync();
    cache.set('k', body('{}'), cache.since(), reading('policy_sets'));
    store.access++;
    await epoch.sync();
    expect(cache.get('k')).toBeUndefined();
  });

  it('does not keep an answer whose computation started before a change to what it read', async () => {
    const { store, epoch, cache } = setup();
    await epoch.sync();
    const since = cache.since();
    store.changedElsewhere('policy_sets');
    await epoch.sync();
    cache.set('k', body('{}'), since, reading('policy_sets'));
    expect(cache.get('k')).toBeUndefined();
  });

  it('forgets an answer after the TTL', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const { epoch, cache } = setup(5000);
    await epoch.sync();
    cache.set('k', body('{}'), cache.since(), reading());
    jest.setSystemTime(1_004_999);
    expect(cache.get('k')).toBeDefined();
    jest.setSystemTime(1_005_000);
    expect(cache.get('k')).toBeUndefined();
  });

  it('stays within its byte budget by dropping the least recently used answers', async () => {
    const { epoch, cache } = setup(5000, 1);
    await epoch.sync();
    const big = 'x'.repeat(100 * 1024);
    for (let i = 0; i < 10; i++) cache.set(`k${i}`, body(big), cache.since(), reading());
    expect(cache.get('k0')).toBeDefined(); // now the most recently used
    cache.set('k10', body(big), cache.since(), reading());
    expect(cache.get('k0')).toBeDefined();
    expect(cache.get('k1')).toBeUndefined();
    expect(cache.get('k10')).toBeDefined();
  });

  it('does not keep an answer larger than an eighth of the budget', async () => {
    const { epoch, cache } = setup(5000, 1);
    await epoch.sync();
    cache.set('huge', body('x'.repeat(200 * 1024)), cache.since(), reading());
    expect(cache.get('huge')).toBeUndefined();
  });

  it('forgets an answer when the credential it was made for expires, before the TTL', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const { epoch, cache } = setup(5000);
    await epoch.sync();
    cache.set('k', body('{}'), cache.since(), reading(), 1_002_000);
    jest.setSystemTime(1_001_999);
    expect(cache.get('k')).toBeDefined();
    jest.setSystemTime(1_002_000);
    expect(cache.get('k')).toBeUndefined();
  });

  it('ends an answer computed from the clock when the time it stands until comes, before the TTL', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const { epoch, cache } = setup(5000);
    await epoch.sync();
    const reads = reading();
    trackReads(reads, () => answerStandsUntil(new Date(1_001_500)));
    cache.set('k', body('{}'), cache.since(), reads);
    jest.setSystemTime(1_001_499);
    expect(cache.get('k')).toBeDefined();
    jest.setSystemTime(1_001_500);
    expect(cache.get('k')).toBeUndefined();
  });

  it('ends an answer at once when this process writes what it read, before the counters are read again', async () => {
    const { epoch, cache } = setup();
    await epoch.sync();
    cache.set('k', body('{}'), cache.since(), reading('runs'));
    epoch.wrote(['workspaces']);
    expect(cache.get('k')).toBeDefined();
    epoch.wrote(['runs']);
    expect(cache.get('k')).toBeUndefined();
  });

  it('is off with a TTL of 0, and with no budget', () => {
    expect(setup(0).cache.enabled).toBe(false);
    expect(setup(5000, 0).cache.enabled).toBe(false);
    expect(setup().cache.enabled).toBe(true);
  });
});

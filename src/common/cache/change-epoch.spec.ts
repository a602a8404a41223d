import { ChangeEpoch, EpochRead } from './change-epoch';
import { MemoryEpochStore } from './memory-epoch-store.testing';
import { ReadSet } from './read-set';

const reading = (...tables: string[]) => {
  const reads = new ReadSet();
  reads.add(tables);
  return reads;
};

async function synced(store = new MemoryEpochStore()) {
  const epoch = new ChangeEpoch(store);
  await epoch.sync();
  return { store, epoch };
}

describe(ChangeEpoch.name, () => {
  describe('reading the counters', () => {
    it('makes callers that arrive during a read wait for the next one, which all of them share', async () => {
      const store = new MemoryEpochStore();
      store.holdReads = true;
      const epoch = new ChangeEpoch(store);
      const first = epoch.sync();
      const late = [epoch.sync(), epoch.sync(), epoch.sync()];
      expect(store.pendingReads).toBe(1);
      const start = epoch.snapshot();
      // A write is answered while the first read is in flight: the late callers must see it.
      await store.answer();
      await first;
      store.changedElsewhere('policy_sets');
      expect(store.pendingReads).toBe(1);
      await store.answer();
      await Promise.all(late);
      expect(store.reads).toBe(2);
      expect(epoch.unchangedSince(start, reading('policy_sets'))).toBe(false);
    });

    it('tells how recent its view is by when the read that gave it started', async () => {
      const store = new MemoryEpochStore();
      const epoch = new ChangeEpoch(store);
      expect(epoch.readWithin(60_000)).toBe(false);
      store.holdReads = true;
      const read = epoch.sync();
      // Not before that read came back, however recently it started.
      expect(epoch.readWithin(60_000)).toBe(false);
      await store.answer();
      await read;
      expect(epoch.readWithin(60_000)).toBe(true);
      const at = Date.now();
      const clock = jest.spyOn(Date, 'now').mockReturnValue(at + 2_000);
      try {
        expect(epoch.readWithin(1_000)).toBe(false);
        expect(epoch.readWithin(5_000)).toBe(true);
      } finally {
        clock.mockRestore();
      }
    });

    it('reads once per request, however often that request asks', async () => {
      const store = new MemoryEpochStore();
      const epoch = new ChangeEpoch(store);
      const [a, b] = [{}, {}];
      const first = epoch.syncFor(a);
      expect(epoch.syncFor(a)).toBe(first);
      await Promise.all([first, epoch.syncFor(b)]);
      expect(store.reads).toBe(2);
    });

    it('hands a failed read to its callers and reads again for the next', async () => {
      const store = new MemoryEpochStore();
      store.holdReads = true;
      const epoch = new ChangeEpoch(store);
      const failing = epoch.sync();
      const waiting = epoch.sync();
      await store.answer(new Error('database away'));
      await expect(failing).rejects.toThrow('database away');
      await store.answer();
      await waiting;
      expect(store.reads).toBe(2);
    });

    it('asks only for the stamps after the last snapshot, and is not moved back by an older read', async () => {
      const asked: number[] = [];
      const answers: EpochRead[] = [
        { all: 5, access: 1, tracked: 5, tables: [['runs', 5]] },
        { all: 3, access: 0, tracked: 3, tables: [['runs', 2]] },
      ];
      const epoch = new ChangeEpoch({
        read: (after) => (asked.push(after), Promise.resolve(answers.shift()!)),
        advance: () => Promise.resolve(),
      });
      await epoch.sync();
      const start = epoch.snapshot();
      await epoch.sync();
      expect(asked).toEqual([-1, 5]);
      expect(epoch.snapshot()).toBe(start);
    });
  });

  describe('what a remembered answer depends on', () => {
    it('ends an answer when a table it read changed, and only then', async () => {
      const { store, epoch } = await synced();
      const start = epoch.snapshot();
      store.changedElsewhere('reserved_tag_keys');
      await epoch.sync();
      expect(epoch.unchangedSince(start, reading('policy_sets', 'policy_set_versions'))).toBe(true);
      store.changedElsewhere('policy_set_versions');
      await epoch.sync();
      expect(epoch.unchangedSince(start, reading('policy_sets', 'policy_set_versions'))).toBe(false);
    });

    it('ends an answer whose reads are not known with any change', async () => {
      const { store, epoch } = await synced();
      const start = epoch.snapshot();
      const unknown = new ReadSet();
      unknown.absorb(null);
      store.changedElsewhere('reserved_tag_keys');
      await epoch.sync();
      expect(epoch.unchangedSince(start, null)).toBe(false);
      expect(epoch.unchangedSince(start, unknown)).toBe(false);
    });

    it('ends every answer after an advance whose tables are not known (an older process, a bulk load)', async () => {
      const { store, epoch } = await synced();
      const start = epoch.snapshot();
      store.all++; // what a process that stamps no tables does
      await epoch.sync();
      expect(epoch.unchangedSince(start, reading('policy_sets'))).toBe(false);
    });

    it('ends answers and rights with a change of access, and rights with nothing else', async () => {
      const { store, epoch } = await synced();
      const start = epoch.snapshot();
      store.changedElsewhere('policy_sets');
      await epoch.sync();
      expect(epoch.unchangedSince(start, 'access')).toBe(true);
      store.access++;
      await epoch.sync();
      expect(epoch.unchangedSince(start, 'access')).toBe(false);
      expect(epoch.unchangedSince(start, reading('workspaces'))).toBe(false);
    });
  });

  describe('announcing what this process wrote', () => {
    it('advances the written tables, their cascades included, in one advance for concurrent writers', async () => {
      const { store, epoch } = await synced();
      epoch.wrote(['workspaces']);
      epoch.wrote(['run_triggers', 'workspaces']);
      await Promise.all([epoch.flush(), epoch.flush()]);
      expect(store.advances).toEqual([
        { tables: ['workspaces', 'run_triggers'], access: false, everything: false },
      ]);
      expect(store.stamps.get('run_triggers')).toBe(store.all);
    });

    it('advances nothing for a write request that wrote nothing', async () => {
      const { store, epoch } = await synced();
      await epoch.flush();
      expect(store.advances).toEqual([]);
    });

    it('moves the access counter in the same advance for a write that may change access', async () => {
      const { store, epoch } = await synced();
      epoch.wrote(['team_members']);
      await epoch.advance('access');
      expect(store.advances).toEqual([{ tables: ['team_members'], access: true, everything: false }]);
    });

    it('waits for an advance that started after its write, not for one already in flight', async () => {
      const store = new MemoryEpochStore();
      const releases: (() => void)[] = [];
      const advance = store.advance.bind(store);
      store.advance = (what) => new Promise<void>((r) => releases.push(r)).then(() => advance(what));
      const epoch = new ChangeEpoch(store);
      epoch.wrote(['a']);
      const first = epoch.flush();
      epoch.wrote(['b']);
      let secondDone = false;
      const second = epoch.flush().then(() => (secondDone = true));
      releases.shift()!();
      await first;
      await new Promise((r) => setImmediate(r));
      expect(secondDone).toBe(false);
      expect(releases).toHaveLength(1);
      releases.shift()!();
      await second;
      expect(store.advances.map((a) => a.tables)).toEqual([['a'], ['b']]);
    });

    it('keeps what a failed advance carried for the next one, and fails the writers it covered', async () => {
      const store = new MemoryEpochStore();
      const advance = store.advance.bind(store);
      let fail = true;
      store.advance = (what) => (fail ? Promise.reject(new Error('database away')) : advance(what));
      const epoch = new ChangeEpoch(store);
      epoch.wrote(['a']);
      await expect(epoch.flush()).rejects.toThrow('database away');
      fail = false;
      epoch.wrote(['b']);
      await epoch.flush();
      expect(store.advances.map((a) => [...a.tables].sort())).toEqual([['a', 'b']]);
    });

    it('announces a background write by itself, shortly after', async () => {
      const { store, epoch } = await synced();
      epoch.wrote(['tokens']);
      await new Promise((r) => setTimeout(r, 60));
      expect(store.advances).toEqual([{ tables: ['tokens'], access: false, everything: false }]);
    });

    it('does nothing when caches are off', async () => {
      const store = new MemoryEpochStore();
      const epoch = new ChangeEpoch(store, false);
      epoch.wrote(['a']);
      await epoch.advance('access');
      expect(store.advances).toEqual([]);
    });
  });
});

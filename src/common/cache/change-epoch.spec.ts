import { ChangeEpoch, Epochs, EpochScope, EpochStore } from './change-epoch';

/** A store whose reads stay pending until the test settles them. */
class ManualStore implements EpochStore {
  /** The `changes` counter. */
  value = 0;
  access = 0;
  readonly pending: { resolve: (v: Epochs) => void; reject: (e: Error) => void }[] = [];
  advances = 0;
  readonly advanced: EpochScope[] = [];

  read(): Promise<Epochs> {
    return new Promise((resolve, reject) => this.pending.push({ resolve, reject }));
  }

  advance(scope: EpochScope): Promise<number> {
    this.advances++;
    this.advanced.push(scope);
    return Promise.resolve(scope === 'access' ? ++this.access : ++this.value);
  }

  /** Answers the oldest pending read with the values the store holds now. */
  async answer(): Promise<void> {
    this.pending.shift()!.resolve({ changes: this.value, access: this.access });
    await new Promise((r) => setImmediate(r));
  }
}

/** Syncs `epoch` with the store holding `value`, answering the read. */
async function syncWith(epoch: ChangeEpoch, store: ManualStore, value: number): Promise<void> {
  store.value = value;
  const synced = epoch.sync();
  await store.answer();
  await synced;
}

describe(ChangeEpoch.name, () => {
  it('starts unknown (-1) and learns the stored value from a read', async () => {
    const store = new ManualStore();
    const epoch = new ChangeEpoch(store);
    expect(epoch.current).toBe(-1);
    await syncWith(epoch, store, 7);
    expect(epoch.current).toBe(7);
  });

  it('makes callers that arrive during a read wait for the next one, which all of them share', async () => {
    const store = new ManualStore();
    const epoch = new ChangeEpoch(store);
    const first = epoch.sync();
    const late = [epoch.sync(), epoch.sync(), epoch.sync()];
    expect(store.pending).toHaveLength(1);

    // A write is answered while the first read is in flight: the late callers must see it.
    store.value = 1;
    await store.answer();
    await first;
    expect(store.pending).toHaveLength(1);
    store.value = 2;
    await store.answer();
    await Promise.all(late);
    expect(epoch.current).toBe(2);
    expect(store.pending).toHaveLength(0);
  });

  it('reads once per request, however often that request asks', async () => {
    const store = new ManualStore();
    const epoch = new ChangeEpoch(store);
    const [a, b] = [{}, {}];
    const first = epoch.syncFor(a);
    expect(epoch.syncFor(a)).toBe(first);
    const other = epoch.syncFor(b);
    expect(other).not.toBe(first);
    await store.answer();
    await store.answer();
    await Promise.all([first, other]);
    expect(store.pending).toHaveLength(0);
  });

  it('never goes back to an older value', async () => {
    const store = new ManualStore();
    const epoch = new ChangeEpoch(store);
    await syncWith(epoch, store, 5);
    await syncWith(epoch, store, 3);
    expect(epoch.current).toBe(5);
  });

  it('hands a failed read to its callers and reads again for the next', async () => {
    const store = new ManualStore();
    const epoch = new ChangeEpoch(store);
    const failing = epoch.sync();
    const waiting = epoch.sync();
    store.pending.shift()!.reject(new Error('database away'));
    await expect(failing).rejects.toThrow('database away');
    store.value = 4;
    await store.answer();
    await waiting;
    expect(epoch.current).toBe(4);
  });

  it('advances the store and its own view in one step, with no read', async () => {
    const store = new ManualStore();
    const epoch = new ChangeEpoch(store);
    store.value = 6;
    await epoch.advance();
    expect(store.advances).toBe(1);
    expect(store.pending).toHaveLength(0);
    expect(epoch.current).toBe(7);
  });

  it('is not moved back by a read that started before an advance and ends after it', async () => {
    const store = new ManualStore();
    const epoch = new ChangeEpoch(store);
    const reading = epoch.sync();
    const staleAnswer = store.pending.shift()!;
    await epoch.advance();
    expect(epoch.current).toBe(1);
    staleAnswer.resolve({ changes: 0, access: 0 });
    await reading;
    expect(epoch.current).toBe(1);
  });

  it('leaves the access counter alone on a plain write and moves both on a write to access', async () => {
    const store = new ManualStore();
    const epoch = new ChangeEpoch(store);
    store.access = 3;
    await syncWith(epoch, store, 10);
    expect([epoch.current, epoch.of('access')]).toEqual([10, 3]);

    await epoch.advance();
    expect([epoch.current, epoch.of('access')]).toEqual([11, 3]);
    await epoch.advance('access');
    expect([epoch.current, epoch.of('access')]).toEqual([12, 4]);
    // Access first: a process that reads between the two drops its tokens and rights no later.
    expect(store.advanced).toEqual(['changes', 'access', 'changes']);
  });

  it('learns both counters from one read, each only forwards', async () => {
    const store = new ManualStore();
    const epoch = new ChangeEpoch(store);
    store.access = 5;
    await syncWith(epoch, store, 2);
    store.access = 4;
    await syncWith(epoch, store, 3);
    expect([epoch.current, epoch.of('access')]).toEqual([3, 5]);
  });
});

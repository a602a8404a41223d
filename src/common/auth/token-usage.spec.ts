import { LAST_USED_RESOLUTION_MS, TokenUsage } from './token-usage';

describe('TokenUsage', () => {
  const T0 = 1_800_000_000_000;

  function setup() {
    const sut = new TokenUsage();
    const writes: { ids: string[]; at: number; notAfter: number }[] = [];
    sut.register((ids, at, notAfter) => {
      writes.push({ ids, at: at.getTime(), notAfter: notAfter.getTime() });
      return Promise.resolve();
    });
    return { sut, writes };
  }

  it('writes the tokens used since the last flush in one statement, each once', async () => {
    const { sut, writes } = setup();
    sut.touch('at-a', T0);
    sut.touch('at-b', T0 + 1);
    sut.touch('at-a', T0 + 2);
    await sut.flush(new Date(T0 + 1000));
    expect(writes).toEqual([
      { ids: ['at-a', 'at-b'], at: T0 + 1000, notAfter: T0 + 1000 - LAST_USED_RESOLUTION_MS },
    ]);
  });

  it('skips a token written less than a minute ago, and writes it again after', async () => {
    const { sut, writes } = setup();
    sut.touch('at-a', T0);
    await sut.flush(new Date(T0));
    sut.touch('at-a', T0 + LAST_USED_RESOLUTION_MS - 1);
    await sut.flush(new Date(T0 + LAST_USED_RESOLUTION_MS - 1));
    expect(writes).toHaveLength(1);
    sut.touch('at-a', T0 + LAST_USED_RESOLUTION_MS);
    await sut.flush(new Date(T0 + LAST_USED_RESOLUTION_MS));
    expect(writes.map((w) => w.ids)).toEqual([['at-a'], ['at-a']]);
  });

  it('writes nothing when nothing was used', async () => {
    const { sut, writes } = setup();
    await sut.flush();
    expect(writes).toEqual([]);
  });

  it('tries again on the next use when a write failed', async () => {
    const sut = new TokenUsage();
    let fail = true;
    const written: string[][] = [];
    sut.register((ids) => {
      if (fail) return Promise.reject(new Error('database away'));
      written.push(ids);
      return Promise.resolve();
    });
    sut.touch('at-a', T0);
    await sut.flush(new Date(T0));
    fail = false;
    sut.touch('at-a', T0 + 1);
    await sut.flush(new Date(T0 + 1));
    expect(written).toEqual([['at-a']]);
  });
});

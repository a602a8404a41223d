import { currentReadSet, holdTracking, ReadSet, trackReads } from './read-set';

describe('read sets', () => {
  it('notes through awaits, not what a nested computation reads, nor after it is closed', async () => {
    const reads = new ReadSet();
    await trackReads(reads, async () => {
      await Promise.resolve();
      currentReadSet()?.add(['a']);
      await trackReads(new ReadSet(), async () => currentReadSet()?.add(['b']));
      await new Promise((r) => setTimeout(r, 1));
      currentReadSet()?.add(['c']);
    });
    reads.close();
    reads.add(['d']);
    expect([...reads.tables]).toEqual(['a', 'c']);
  });

  it('takes on what another computation read, or that it cannot know', () => {
    const mine = new ReadSet();
    const other = new ReadSet();
    other.add(['x']);
    mine.absorb(other);
    expect([...mine.tables]).toEqual(['x']);
    expect(mine.unknown).toBe(false);
    mine.absorb(null);
    expect(mine.unknown).toBe(true);
  });

  it('is off once no tracked computation is held, and on again for the next', async () => {
    const release = holdTracking();
    const first = new ReadSet();
    await trackReads(first, async () => {
      await Promise.resolve();
      currentReadSet()?.add(['a']);
    });
    release();
    release(); // a second call changes nothing
    expect(currentReadSet()).toBeUndefined();
    const again = holdTracking();
    const second = new ReadSet();
    await trackReads(second, async () => {
      await Promise.resolve();
      currentReadSet()?.add(['b']);
    });
    again();
    expect([...first.tables, ...second.tables]).toEqual(['a', 'b']);
  });
});

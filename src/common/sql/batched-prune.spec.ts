import { pruneInBatches } from './batched-prune';

describe('pruneInBatches', () => {
  it('steps until a step finds less than a chunk and adds up what was removed', async () => {
    const found = [3, 3, 1];
    const step = jest.fn(() => {
      const n = found.shift()!;
      return Promise.resolve({ found: n, removed: n - 1 });
    });
    expect(await pruneInBatches(step, 3, 0)).toBe(4);
    expect(step).toHaveBeenCalledTimes(3);
  });

  it('stops after one step when nothing is past retention', async () => {
    const step = jest.fn(() => Promise.resolve({ found: 0, removed: 0 }));
    expect(await pruneInBatches(step, 500, 0)).toBe(0);
    expect(step).toHaveBeenCalledTimes(1);
  });
});

import { EntityManager } from 'typeorm';
import { CatalogUsageRegistry } from './catalog-usage.registry';

describe('CatalogUsageRegistry', () => {
  let sut: CatalogUsageRegistry;
  const workspaces = { one: 'workspace', other: 'workspaces' };
  const policySets = { one: 'policy set', other: 'policy sets' };

  beforeEach(() => {
    sut = new CatalogUsageRegistry();
  });

  it('counts zero for every version while nothing is registered', async () => {
    expect(await sut.totals('engine-versions', ['1.0.0', '2.0.0'])).toEqual(
      new Map([
        ['1.0.0', 0],
        ['2.0.0', 0],
      ]),
    );
    expect(await sut.consumersOf('engine-versions', '1.0.0', {} as EntityManager)).toEqual([]);
  });

  it('adds up the counters of one catalog, keyed by lower-cased version', async () => {
    const counter = jest.fn(async () => new Map([['1.0.0-RC1', 2]]));
    sut.register('policy-engine-versions', counter, workspaces);
    sut.register(
      'policy-engine-versions',
      async () =>
        new Map([
          ['1.0.0-rc1', 3],
          ['9.9.9', 1],
        ]),
      policySets,
    );
    sut.register('engine-versions', async () => new Map([['1.0.0-rc1', 100]]), workspaces);

    expect(await sut.totals('policy-engine-versions', ['1.0.0-RC1', '2.0.0'])).toEqual(
      new Map([
        ['1.0.0-rc1', 5],
        ['2.0.0', 0],
      ]),
    );
    expect(counter).toHaveBeenCalledTimes(1);
    expect(counter).toHaveBeenCalledWith(['1.0.0-RC1', '2.0.0']);
  });

  it('asks no counter about an empty page', async () => {
    const counter = jest.fn(async () => new Map<string, number>());
    sut.register('engine-versions', counter, workspaces);
    expect(await sut.totals('engine-versions', [])).toEqual(new Map());
    expect(counter).not.toHaveBeenCalled();
  });

  it('names each consumer that pins a version, leaving out those that do not', async () => {
    sut.register('policy-engine-versions', async () => new Map([['0.9.0', 1]]), workspaces);
    sut.register('policy-engine-versions', async () => new Map([['0.9.0', 2]]), policySets);
    sut.register('policy-engine-versions', async () => new Map(), { one: 'thing', other: 'things' });

    const usage = await sut.consumersOf('policy-engine-versions', '0.9.0', {} as EntityManager);
    expect(usage).toEqual([
      { noun: workspaces, count: 1 },
      { noun: policySets, count: 2 },
    ]);
    expect(CatalogUsageRegistry.describe(usage)).toBe('1 workspace and 2 policy sets');
  });

  it("counts a version's consumers through the caller's transaction, one counter at a time", async () => {
    const manager = {} as EntityManager;
    const running: string[] = [];
    const seen: { manager: EntityManager | undefined; alongside: string[] }[] = [];
    const counter = (name: string) => async (_versions: string[], m?: EntityManager) => {
      seen.push({ manager: m, alongside: [...running] });
      running.push(name);
      await new Promise((resolve) => setImmediate(resolve));
      running.splice(running.indexOf(name), 1);
      return new Map([['1.0.0', 1]]);
    };
    sut.register('engine-versions', counter('a'), workspaces);
    sut.register('engine-versions', counter('b'), policySets);

    await sut.consumersOf('engine-versions', '1.0.0', manager);
    expect(seen).toEqual([
      { manager, alongside: [] },
      { manager, alongside: [] },
    ]);
  });
});

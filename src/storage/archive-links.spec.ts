import { tarBytes, TarEntry } from '../../test/helpers/tarball';
import { LinkTree, STEPS_PER_ENTRY } from './archive-links';
import { TarScanner } from './tar-scanner';

/** Links L1 … Ln, each through the one before: resolving Ln follows the whole chain. */
function chain(length: number): TarEntry[] {
  const links: TarEntry[] = [{ path: 'L0', type: 'SymbolicLink', linkpath: '.' }];
  for (let k = 1; k <= length; k++)
    links.push({ path: `L${k}`, type: 'SymbolicLink', linkpath: `L${k - 1}` });
  return links;
}

function scan(entries: TarEntry[], maxEntries: number) {
  const scanner = new TarScanner(maxEntries);
  return scanner.write(tarBytes(entries)) ?? scanner.end();
}

describe('link resolution cost', () => {
  it('costs a resolution in proportion to the chain it goes through', () => {
    const tree = new LinkTree(1_000_000);
    for (let k = 1; k <= 30; k++) tree.addLink([`L${k}`], `L${k - 1}`);
    tree.addLink(['L0'], 'd');
    const cost = (path: string) => {
      const before = tree.steps;
      expect(tree.resolve(path, true)).toEqual({ ok: true, parts: ['d', 'f'] });
      return tree.steps - before;
    };
    // A component walked and a link followed with the component it adds: two steps per link.
    expect(cost('L0/f')).toBe(4);
    expect(cost('L10/f')).toBe(24);
    expect(cost('L30/f')).toBe(64);
  });

  it('refuses a resolution once the whole archive has spent its budget', () => {
    const tree = new LinkTree(50);
    for (let k = 1; k <= 30; k++) tree.addLink([`L${k}`], `L${k - 1}`);
    expect(tree.resolve('L20/f', true)).toMatchObject({ ok: true });
    expect(tree.steps).toBe(42);
    expect(tree.resolve('L20/f', true)).toEqual({ ok: false, why: 'costly' });
  });

  it('counts an archive of links through a chain against the entry-count cap by their cost', () => {
    // 40 links through a 30-link chain: 71 headers, far under the cap in number, not in cost.
    const entries = [
      { path: 'main.tf', body: 'x' },
      ...chain(30),
      ...Array.from({ length: 40 }, (_, i) => ({ path: `e${i}`, type: 'SymbolicLink', linkpath: 'L30' })),
    ];
    expect(scan(entries, 100)).toBe(
      'the archive has more than 100 entries once its links are counted at their cost ' +
        `(resolving its paths takes more than ${100 * STEPS_PER_ENTRY} steps, ${STEPS_PER_ENTRY} per entry; the entry-count cap)`,
    );
    // The same links pointing at the file instead cost a few steps each.
    const direct = entries.map((e) => (e.linkpath === 'L30' ? { ...e, linkpath: 'main.tf' } : e));
    expect(scan(direct, 100)).toBeNull();
  });

  it('takes an ordinary archive of files and links at its entry count', () => {
    const entries: TarEntry[] = [];
    for (let i = 0; i < 50; i++) {
      entries.push({ path: `modules/m${i}/main.tf`, body: 'x' });
      entries.push({ path: `modules/m${i}/shared`, type: 'SymbolicLink', linkpath: '../../shared' });
    }
    expect(scan(entries, 100)).toBeNull();
  });
});

import { parseSortKeys, sortInMemory } from './sort';

const FIELDS = { name: 'name', 'created-at': 'createdAt' };

describe('parseSortKeys', () => {
  it('reads fields in order, `-` for descending, mapped to entity properties', () => {
    expect(parseSortKeys('name,-created-at', FIELDS)).toEqual([
      { field: 'name', property: 'name', descending: false },
      { field: 'created-at', property: 'createdAt', descending: true },
    ]);
  });

  it('leaves the default order when sort is absent or empty', () => {
    expect(parseSortKeys(undefined, FIELDS)).toBeUndefined();
    expect(parseSortKeys(' ', FIELDS)).toBeUndefined();
  });

  it.each([
    ['size', 'sort field size is not supported; allowed: name, created-at'],
    ['name,-size', 'sort field size is not supported; allowed: name, created-at'],
    ['--name', 'sort field -name is not supported; allowed: name, created-at'],
    ['name,name', 'sort names name twice'],
    ['name,created-at,name,name', 'sort may name at most 3 fields'],
    ['toString', 'sort field toString is not supported; allowed: name, created-at'],
  ])('refuses %s with a 400 naming the parameter', (raw, detail) => {
    expect(() => parseSortKeys(raw, FIELDS)).toThrow(
      expect.objectContaining({ kind: 'bad-request', items: [{ detail, parameter: 'sort' }] }),
    );
  });

  it('refuses sort on a route that declares no sortable fields', () => {
    expect(() => parseSortKeys('name', undefined)).toThrow(
      expect.objectContaining({
        items: [{ detail: 'sort is not supported on this route', parameter: 'sort' }],
      }),
    );
  });
});

describe('sortInMemory', () => {
  const rows = [
    { id: 'b', name: 'x', createdAt: new Date(2) },
    { id: 'a', name: 'x', createdAt: new Date(3) },
    { id: 'c', name: 'w', createdAt: new Date(1) },
  ];
  const get = (r: (typeof rows)[number], p: string) => (r as Record<string, unknown>)[p];

  it('orders by the keys with id as the last one, in the direction of the last key', () => {
    expect(sortInMemory(rows, parseSortKeys('name', FIELDS), get).map((r) => r.id)).toEqual(['c', 'a', 'b']);
    expect(sortInMemory(rows, parseSortKeys('-name', FIELDS), get).map((r) => r.id)).toEqual(['b', 'a', 'c']);
    expect(sortInMemory(rows, parseSortKeys('-created-at', FIELDS), get).map((r) => r.id)).toEqual([
      'a',
      'b',
      'c',
    ]);
  });

  it('keeps the list as it is without keys', () => {
    expect(sortInMemory(rows, undefined, get)).toBe(rows);
  });
});

import { Column, DataSource, Entity, PrimaryColumn } from 'typeorm';
import { RowReader } from './row-reader';
import { countRows, expand, paginateRows, paginateRowsCounted, SqlConditions, SqlList } from './sql-page';

@Entity('widgets')
class Widget {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id!: string;

  @Column({ type: 'varchar', length: 64 })
  name!: string;

  @Column({ type: 'varchar', length: 32 })
  colour!: string;

  @Column({ type: 'datetime' })
  createdAt!: Date;
}

describe('plain-SQL pages', () => {
  let ds: DataSource;
  let widgets: RowReader<Widget>;
  const list = (where = new SqlConditions()): SqlList => ({
    from: 'widgets w',
    alias: 'w',
    where,
    orderBy: 'w.name ASC, w.id ASC',
  });

  beforeAll(async () => {
    ds = new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      entities: [Widget],
      synchronize: true,
    });
    await ds.initialize();
    const colours = ['red', 'green', 'blue'];
    await ds.getRepository(Widget).insert(
      Array.from({ length: 25 }, (_, i) => ({
        id: `w-${String(i).padStart(2, '0')}`,
        name: `widget ${String(24 - i).padStart(2, '0')}`,
        colour: colours[i % 3],
        createdAt: new Date(Date.UTC(2026, 0, 1 + (i % 5))),
      })),
    );
    widgets = new RowReader(ds, Widget);
  });
  afterAll(() => ds.destroy());

  it('writes no WHERE without conditions, and brackets each condition', () => {
    expect(new SqlConditions().sql).toBe('');
    const where = new SqlConditions().and('a = :a OR b = :a', { a: 1 }).in('c', 'cs', ['x', 'y']);
    expect(where.sql).toBe('WHERE (a = :a OR b = :a) AND (c IN (:...cs))');
    expect(new SqlConditions().in('c', 'cs', []).sql).toBe('WHERE (1 = 0)');
  });

  it('expands named parameters and lists to the positional form', () => {
    const [sql, params] = expand(ds, 'SELECT 1 WHERE a = :a AND b IN (:...bs) AND c = :c', {
      a: 'one',
      bs: ['x', 'y'],
    });
    expect(sql).toBe('SELECT 1 WHERE a = ? AND b IN (?, ?) AND c = :c');
    expect(params).toEqual(['one', 'x', 'y']);
  });

  it('pages in the default order with the total, hydrating whole entities', async () => {
    const page = await paginateRows(widgets, list(), { number: 2, size: 10 });
    expect(page.totalCount).toBe(25);
    expect(page.items.map((w) => w.name)).toEqual(
      Array.from({ length: 10 }, (_, i) => `widget ${String(10 + i).padStart(2, '0')}`),
    );
    expect(page.items[0]).toBeInstanceOf(Widget);
    expect(page.items[0].createdAt).toBeInstanceOf(Date);
  });

  it('filters by conditions, in the count as in the page', async () => {
    const where = new SqlConditions().and('w.colour = :colour', { colour: 'red' });
    const page = await paginateRows(widgets, list(where), { number: 1, size: 4 });
    expect(page.totalCount).toBe(9);
    expect(page.items).toHaveLength(4);
    expect(page.items.every((w) => w.colour === 'red')).toBe(true);
    expect(await countRows(ds, list(where))).toBe(9);
  });

  it('orders by the requested properties, id last in the last key direction', async () => {
    const page = await paginateRows(widgets, list(), {
      number: 1,
      size: 6,
      sort: [{ field: 'created-at', property: 'createdAt', descending: true }],
    });
    expect(page.items.map((w) => w.id)).toEqual(['w-24', 'w-19', 'w-14', 'w-09', 'w-04', 'w-23']);
    await expect(() =>
      paginateRows(widgets, list(), {
        number: 1,
        size: 6,
        sort: [{ field: 'nope', property: 'nope', descending: false }],
      }),
    ).rejects.toThrow('Widget has no property nope');
  });

  it('pages through a transaction manager the same way', async () => {
    const page = await ds.transaction((manager) =>
      paginateRows(
        widgets,
        list(new SqlConditions().in('w.colour', 'colours', ['green', 'blue'])),
        { number: 3, size: 5 },
        manager,
      ),
    );
    expect(page.totalCount).toBe(16);
    expect(page.items).toHaveLength(5);
  });

  it('carries the total beside the rows, and counts apart only past the end', async () => {
    const counted = await paginateRowsCounted(widgets, list(), { number: 3, size: 10 });
    expect(counted.totalCount).toBe(25);
    expect(counted.items).toHaveLength(5);
    const past = await paginateRowsCounted(widgets, list(), { number: 9, size: 10 });
    expect(past).toMatchObject({ totalCount: 25, items: [] });
  });
});

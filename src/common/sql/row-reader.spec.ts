import { Column, DataSource, Entity, PrimaryColumn } from 'typeorm';
import { RowReader } from './row-reader';

@Entity('gadgets')
class Gadget {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id!: string;

  @Column({ type: 'varchar', length: 64 })
  name!: string;

  @Column({ type: 'boolean', default: false })
  shiny!: boolean;

  @Column({ type: 'datetime' })
  createdAt!: Date;

  @Column({ type: 'varchar', length: 64, nullable: true, select: false })
  secret!: string | null;
}

describe('RowReader', () => {
  let ds: DataSource;
  let rows: RowReader<Gadget>;

  beforeAll(async () => {
    ds = new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      entities: [Gadget],
      synchronize: true,
    });
    await ds.initialize();
    const at = new Date('2026-01-02T03:04:05.678Z');
    const all = Array.from({ length: 1203 }, (_, i) => ({
      id: `g-${i}`,
      name: `gadget ${i}`,
      shiny: i % 2 === 0,
      createdAt: at,
      secret: `secret ${i}`,
    }));
    for (let i = 0; i < all.length; i += 200) await ds.getRepository(Gadget).insert(all.slice(i, i + 200));
    rows = new RowReader(ds, Gadget);
  });
  afterAll(() => ds.destroy());

  it('reads entities by id across chunks, once each, skipping unknown ids', async () => {
    const wanted = Array.from({ length: 1203 }, (_, i) => `g-${i}`);
    const found = await rows.byIds([...wanted, 'g-7', 'g-nope']);
    expect(found).toHaveLength(1203);
    expect(new Set(found.map((g) => g.id))).toEqual(new Set(wanted));
  });

  it('reads one entity by id in a transaction, or null for an unknown id', async () => {
    const [found, missing] = await ds.transaction((manager) =>
      Promise.all([rows.lockedById('g-7', manager), rows.lockedById('g-nope', manager)]),
    );
    expect(found).toMatchObject({ id: 'g-7', name: 'gadget 7' });
    expect(missing).toBeNull();
  });

  it('hydrates like TypeORM: an entity instance with typed values', async () => {
    const [viaReader] = await rows.byIds(['g-4']);
    const viaOrm = await ds.getRepository(Gadget).findOneByOrFail({ id: 'g-4' });
    expect(viaReader).toBeInstanceOf(Gadget);
    expect(viaReader).toEqual(viaOrm);
    expect(viaReader.shiny).toBe(true);
    expect(viaReader.createdAt).toEqual(new Date('2026-01-02T03:04:05.678Z'));
  });

  it("reads inside a transaction on its connection, seeing the transaction's own writes", async () => {
    await expect(
      ds.transaction(async (manager) => {
        await manager.getRepository(Gadget).update({ id: 'g-9' }, { name: 'renamed inside' });
        expect((await rows.byId('g-9', manager))?.name).toBe('renamed inside');
        expect(
          (
            await rows.many(
              'SELECT ' + rows.select('t') + ' FROM gadgets t WHERE t.name = ?',
              ['renamed inside'],
              't',
              manager,
            )
          ).map((g) => g.id),
        ).toEqual(['g-9']);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await rows.byId('g-9'))?.name).toBe('gadget 9');
  });

  it('leaves out a column its entity reads only on demand, unless the reader names it', async () => {
    expect(rows.select('t')).not.toContain('secret');
    expect((await rows.byId('g-3'))?.secret).toBeUndefined();
    const withSecret = new RowReader(ds, Gadget, ['secret']);
    expect(await withSecret.byId('g-3')).toMatchObject({ id: 'g-3', name: 'gadget 3', secret: 'secret 3' });
  });

  it('answers an empty list without a query', async () => {
    const spy = jest.spyOn(ds, 'query');
    expect(await rows.byIds([])).toEqual([]);
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });

  it('names the same columns with NULLs for the parts of a UNION that carry no such row', async () => {
    const result: Record<string, unknown>[] = await ds.query(
      `SELECT 'row' AS part, ${rows.select('t')} FROM gadgets t WHERE t.id = 'g-6'
       UNION ALL SELECT 'none' AS part, ${rows.nulls('t')}`,
    );
    expect(result).toHaveLength(2);
    const [row, none] = result[0].part === 'row' ? result : [result[1], result[0]];
    expect(Object.keys(none).sort()).toEqual(Object.keys(row).sort());
    expect(rows.hydrate(row, 't')).toEqual(await ds.getRepository(Gadget).findOneByOrFail({ id: 'g-6' }));
    expect(Object.entries(none).filter(([k, v]) => k.startsWith('t_') && v !== null)).toEqual([]);
  });
});

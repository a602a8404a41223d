import { DataSource, EntityTarget, In, ObjectLiteral, QueryFailedError } from 'typeorm';
import { ChangeEpoch } from '../../src/common/cache/change-epoch';
import { isUniqueViolation } from '../../src/common/errors/db-errors';
import { RowWriter } from '../../src/common/sql/row-writer';
import { inTransaction, runStatement } from '../../src/common/sql/transaction';
import { AuditEventEntity } from '../../src/audit/entities/audit-event.entity';
import { ReservedTagKeyEntity } from '../../src/reserved-tag-keys/entities/reserved-tag-key.entity';
import { OrganizationEntity } from '../../src/organizations/entities/organization.entity';
import { startApp, TestApp } from '../helpers/test-app';

/**
 * RowWriter writes the rows TypeORM's insert builder writes (the same values through the driver's
 * conversions), and its statements beside the query runners are noted for the change epochs as
 * the runners note theirs.
 */
describe('rows written beside the query builders', () => {
  let t: TestApp;
  let ds: DataSource;
  const orgId = 'org-rowwriter';
  /** Rows inserted by TypeORM's insert builder: what RowWriter's rows are compared with. */
  const built = <T extends ObjectLiteral>(entity: EntityTarget<T>, values: T | T[]) =>
    ds.createQueryBuilder().insert().into(entity).values(values).execute();

  beforeAll(async () => {
    t = await startApp();
    ds = t.app.get(DataSource);
    await built(OrganizationEntity, {
      id: orgId,
      name: 'row-writer',
      email: 'a@example.com',
      edition: 'free',
      createdAt: new Date(),
      updatedAt: new Date(),
    });
  });
  afterAll(() => t.close());

  const key = (id: string, name: string, disableOverrides: boolean): ReservedTagKeyEntity =>
    Object.assign(new ReservedTagKeyEntity(), {
      id,
      organizationId: orgId,
      key: name,
      disableOverrides,
      createdAt: new Date('2024-08-13T23:06:42.523Z'),
      updatedAt: new Date('2024-08-13T23:06:42.524Z'),
    });

  const event = (id: string, nulls: boolean): AuditEventEntity =>
    Object.assign(new AuditEventEntity(), {
      id,
      occurredAt: new Date('2025-01-02T03:04:05.678Z'),
      actorType: 'user',
      actorId: nulls ? null : 'user-1',
      actorName: nulls ? null : 'ünïcode ✓',
      tokenId: nulls ? null : 'at-1',
      organizationId: nulls ? null : orgId,
      clientAddress: nulls ? null : '127.0.0.1',
      requestId: nulls ? null : 'req-1',
      method: 'POST',
      route: '/api/v2/organizations/:org/reserved-tag-keys',
      resourceType: 'reserved-tag-keys',
      resourceId: nulls ? null : 'rtk-1',
      action: 'create',
      status: 201,
      outcome: 'success',
    });

  /** Every column of the rows, as the database hands them back. */
  const rowsOf = (table: string, ids: string[]) =>
    ds.query<Record<string, unknown>[]>(
      `SELECT * FROM ${table} WHERE id IN (${ids.map(() => '?').join(', ')}) ORDER BY id`,
      ids,
    );

  /** The rows without their ids, which differ on purpose. */
  const withoutIds = (rows: Record<string, unknown>[]) => rows.map(({ id: _id, ...rest }) => rest);

  it('inserts the same rows as the insert builder, alone and inside a transaction', async () => {
    const writer = new RowWriter(ds, ReservedTagKeyEntity);
    await built(ReservedTagKeyEntity, key('rtk-qb-1', 'a', true));
    await built(ReservedTagKeyEntity, key('rtk-qb-2', 'b', false));
    await writer.insert(key('rtk-rw-1', 'a2', true));
    await inTransaction(ds, (m) => writer.insert(key('rtk-rw-2', 'b2', false), m));
    const byBuilder = await rowsOf('reserved_tag_keys', ['rtk-qb-1', 'rtk-qb-2']);
    const written = await rowsOf('reserved_tag_keys', ['rtk-rw-1', 'rtk-rw-2']);
    expect(withoutIds(written).map(({ key: _k, ...r }) => r)).toEqual(
      withoutIds(byBuilder).map(({ key: _k, ...r }) => r),
    );
    // And they read back as the entity that was written.
    const [read] = await ds.getRepository(ReservedTagKeyEntity).findBy({ id: 'rtk-rw-1' });
    expect(read).toEqual(key('rtk-rw-1', 'a2', true));
  });

  it('inserts many rows at once, a run of the same columns per statement', async () => {
    const writer = new RowWriter(ds, AuditEventEntity);
    await built(AuditEventEntity, [event('ev-qb-1', false), event('ev-qb-2', true), event('ev-qb-3', false)]);
    // The second entity leaves a nullable column undefined: a run of its own, the column defaulted.
    const partial = event('ev-rw-2', true);
    delete (partial as Partial<AuditEventEntity>).resourceId;
    await inTransaction(ds, (m) =>
      writer.insertMany([event('ev-rw-1', false), partial, event('ev-rw-3', false)], m),
    );
    const byBuilder = await rowsOf('audit_events', ['ev-qb-1', 'ev-qb-2', 'ev-qb-3']);
    const written = await rowsOf('audit_events', ['ev-rw-1', 'ev-rw-2', 'ev-rw-3']);
    expect(withoutIds(written)).toEqual(withoutIds(byBuilder));
  });

  it('updates the rows a match selects as the update builder does, and counts them', async () => {
    const writer = new RowWriter(ds, ReservedTagKeyEntity);
    const repo = ds.getRepository(ReservedTagKeyEntity);
    await writer.insertMany(
      ['u-qb-1', 'u-qb-2', 'u-rw-1', 'u-rw-2', 'u-rw-3'].map((id) => key(`rtk-${id}`, id, false)),
    );
    const at = new Date('2025-05-06T07:08:09.123Z');
    await repo.update(
      { id: In(['rtk-u-qb-1', 'rtk-u-qb-2']), disableOverrides: false },
      { disableOverrides: true, updatedAt: at },
    );
    // A list, a value, and a match that leaves one row out; then inside a transaction.
    expect(
      await writer.update(
        { disableOverrides: true, updatedAt: at },
        { id: ['rtk-u-rw-1', 'rtk-u-rw-2', 'rtk-u-none'], disableOverrides: false },
      ),
    ).toBe(2);
    expect(
      await writer.update({ disableOverrides: true }, { id: 'rtk-u-rw-1', disableOverrides: false }),
    ).toBe(0);
    expect(
      await inTransaction(ds, (m) =>
        writer.update({ key: 'renamed', updatedAt: undefined }, { id: 'rtk-u-rw-3' }, m),
      ),
    ).toBe(1);
    expect(await writer.update({ key: 'x' }, { id: [] })).toBe(0);
    const byBuilder = await rowsOf('reserved_tag_keys', ['rtk-u-qb-1', 'rtk-u-qb-2']);
    const written = await rowsOf('reserved_tag_keys', ['rtk-u-rw-1', 'rtk-u-rw-2']);
    expect(withoutIds(written).map(({ key: _k, ...r }) => r)).toEqual(
      withoutIds(byBuilder).map(({ key: _k, ...r }) => r),
    );
    // undefined leaves a column as it was.
    expect(await repo.findOneByOrFail({ id: 'rtk-u-rw-3' })).toEqual({
      ...key('rtk-u-rw-3', 'renamed', false),
    });
    await expect(writer.update({}, { id: 'rtk-u-rw-3' })).rejects.toThrow('a change and a match');
    await expect(writer.update({ key: 'y' }, {})).rejects.toThrow('a change and a match');
  });

  it('fails as the builder fails, and deletes by primary key', async () => {
    const writer = new RowWriter(ds, ReservedTagKeyEntity);
    await writer.insert(key('rtk-dup', 'dup', false));
    const again = await writer.insert(key('rtk-dup', 'dup-2', false)).catch((err: unknown) => err);
    expect(again).toBeInstanceOf(QueryFailedError);
    expect(isUniqueViolation(again)).toBe(true);
    expect(await writer.deleteById('rtk-dup')).toBe(true);
    expect(await writer.deleteById('rtk-dup')).toBe(false);
    expect(await rowsOf('reserved_tag_keys', ['rtk-dup'])).toEqual([]);
  });

  it('notes what a statement on its own wrote, also when it failed', async () => {
    const epoch = t.app.get(ChangeEpoch);
    // Noted (on SQLite the statement runs in a transaction of its own, which a failure rolls back,
    // so it is only noted; on MySQL/MariaDB it commits by itself and is announced, which notes it).
    const wrote = jest.spyOn(epoch, 'noted');
    try {
      expect(
        await runStatement(ds, 'UPDATE reserved_tag_keys SET key_name_missing = 1 WHERE id = ?', ['x']).catch(
          (err: unknown) => err,
        ),
      ).toBeInstanceOf(QueryFailedError);
      expect(wrote).toHaveBeenLastCalledWith(['reserved_tag_keys']);
      wrote.mockClear();
      expect(await runStatement(ds, 'DELETE FROM organizations WHERE id = ?', ['org-none-such'])).toBe(0);
      // A delete is noted with every table its foreign keys cascade to.
      const [tables] = wrote.mock.calls.at(-1)!;
      expect(tables).toEqual(expect.arrayContaining(['organizations', 'reserved_tag_keys', 'workspaces']));
    } finally {
      wrote.mockRestore();
    }
  });

  it('announces what a transaction wrote once, at its commit, and nothing of one rolled back', async () => {
    const epoch = t.app.get(ChangeEpoch);
    const wrote = jest.spyOn(epoch, 'wrote');
    const noted = jest.spyOn(epoch, 'noted');
    const writer = new RowWriter(ds, ReservedTagKeyEntity);
    try {
      await inTransaction(ds, async (m) => {
        await writer.insert(key('rtk-txn', 'txn', false), m);
        // Noted for this process's own caches at once, announced to the others only after the commit.
        expect(noted).toHaveBeenLastCalledWith(['reserved_tag_keys']);
        expect(wrote).not.toHaveBeenCalled();
      });
      expect(wrote.mock.calls).toEqual([[['reserved_tag_keys']]]);
      wrote.mockClear();
      noted.mockClear();
      const failed = await inTransaction(ds, async (m) => {
        await writer.deleteById('rtk-txn', m);
        throw new Error('changed my mind');
      }).catch((err: unknown) => err);
      expect(failed).toEqual(new Error('changed my mind'));
      expect(noted).toHaveBeenCalled();
      expect(wrote).not.toHaveBeenCalled();
      expect(await rowsOf('reserved_tag_keys', ['rtk-txn'])).toHaveLength(1);
    } finally {
      wrote.mockRestore();
      noted.mockRestore();
    }
  });
});

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Page } from '../common/sql/paginate';
import { RowReader } from '../common/sql/row-reader';
import { RowWriter } from '../common/sql/row-writer';
import { expand, paginateRows, SqlConditions } from '../common/sql/sql-page';
import { PageParams } from '../common/jsonapi/pagination';
import { whenDuplicate } from '../common/errors/db-errors';
import { inTransaction } from '../common/sql/transaction';
import { readRowsWith } from '../persistence/pool-reads';
import { ReservedTagKeyEntity } from './entities/reserved-tag-key.entity';

/**
 * Reserved tag keys in plain SQL throughout (RowReader, RowWriter): every route on one key reads it
 * by id, and their writes and pages are a measured load (the `reserved-tag-key-churn` bench).
 */
@Injectable()
export class ReservedTagKeysRepository {
  private readonly rows: RowReader<ReservedTagKeyEntity>;
  private readonly writer: RowWriter<ReservedTagKeyEntity>;

  constructor(@InjectDataSource() private readonly ds: DataSource) {
    this.rows = new RowReader(ds, ReservedTagKeyEntity);
    this.writer = new RowWriter(ds, ReservedTagKeyEntity);
  }

  /** Every route on one key starts here. */
  async findById(id: string): Promise<ReservedTagKeyEntity | null> {
    return this.rows.byId(id);
  }

  /** The organization's keys in key order (or the order `sort` asked for), with their count. */
  list(organizationId: string, page: PageParams): Promise<Page<ReservedTagKeyEntity>> {
    const key = this.rows.columnOf('key');
    return paginateRows(
      this.rows,
      {
        from: 'reserved_tag_keys k',
        alias: 'k',
        where: new SqlConditions().and('k.organization_id = :organizationId', { organizationId }),
        orderBy: `k.${key} ASC, k.id ASC`,
      },
      page,
    );
  }

  /** Another key of the organization equal to `key` ignoring case, the same way on both dialects. */
  async findClash(
    manager: EntityManager,
    organizationId: string,
    key: string,
    exceptId: string,
  ): Promise<ReservedTagKeyEntity | null> {
    const [clash] = await this.rows.many(
      `SELECT ${this.rows.select('k')} FROM reserved_tag_keys k
        WHERE k.organization_id = ? AND LOWER(k.${this.rows.columnOf('key')}) = ? AND k.id <> ? LIMIT 1`,
      [organizationId, key.toLowerCase(), exceptId],
      'k',
      manager,
    );
    return clash ?? null;
  }

  /** The keys (lower-cased) among `lowerKeys` that the organization reserved with overrides disabled. */
  async overrideLocked(
    manager: EntityManager,
    organizationId: string,
    lowerKeys: string[],
  ): Promise<string[]> {
    if (!lowerKeys.length) return [];
    const key = this.rows.columnOf('key');
    const [sql, params] = expand(
      this.ds,
      `SELECT k.${key} AS ${key} FROM reserved_tag_keys k
        WHERE k.organization_id = :organizationId AND k.disable_overrides = :yes
          AND LOWER(k.${key}) IN (:...keys)`,
      { organizationId, yes: true, keys: lowerKeys },
    );
    const rows = await readRowsWith<{ key: string }>(manager, sql, params);
    return rows.map((r) => r.key.toLowerCase());
  }

  /**
   * Inserts `key` unless another key of its organization equals it ignoring case: false then. On
   * MySQL/MariaDB it is one statement: the unique index compares keys in the column's collation
   * (utf8mb4_unicode_ci), which ignores case, so the insert itself refuses a clash. SQLite's index
   * compares bytes: there the check and the insert run in one transaction (its writers take turns).
   */
  async insertUnlessTaken(key: ReservedTagKeyEntity): Promise<boolean> {
    return whenDuplicate(
      async () => {
        if (this.ds.options.type === 'better-sqlite3') {
          return inTransaction(this.ds, async (manager) => {
            if (await this.findClash(manager, key.organizationId, key.key, key.id)) return false;
            await this.writer.insert(key, manager);
            return true;
          });
        }
        await this.writer.insert(key);
        return true;
      },
      () => false,
    );
  }

  /** Writes both attributes and `updated-at` of an existing key, without reading it first. */
  async update(manager: EntityManager, key: ReservedTagKeyEntity): Promise<void> {
    await this.writer.update(
      { key: key.key, disableOverrides: key.disableOverrides, updatedAt: key.updatedAt },
      { id: key.id },
      manager,
    );
  }

  /** One statement: nothing refers to a reserved key. */
  async delete(id: string): Promise<void> {
    await this.writer.deleteById(id);
  }
}

import { DataSource, EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { runStatement, writeWith } from './transaction';

/**
 * Which rows an update changes: each property equal to a value, to one of its values (a list), or
 * NULL (`null`, for a nullable property).
 */
export type RowMatch<T> = { [K in keyof T]?: T[K] | readonly T[K][] };

/**
 * Writes whole rows with plain SQL for the writes every request of a kind makes (RowReader's
 * counterpart). TypeORM's insert, update and delete builders rebuild their SQL, walk the metadata
 * and merge what the database returns on every call; here the statement text is built once and
 * each value goes through the driver's own conversion (dates, booleans, transformers), so the rows
 * are the same as the builder writes. For entities the service fills in completely: nothing the
 * database generates is read back, and a property left undefined is left out, so its column takes
 * the table's default.
 *
 * With a transaction's manager a statement runs on its connection; otherwise on its own
 * (runStatement: committed by itself, retried after a lost deadlock).
 */
export class RowWriter<T extends ObjectLiteral> {
  private readonly metadata: EntityMetadata;
  private readonly columns: ColumnMetadata[];
  /** One-row INSERT texts by which columns the entity had values for (a mask of '1' and '0'). */
  private readonly inserts = new Map<string, string>();
  /** UPDATE texts by which properties are set and matched (and how long each list is). */
  private readonly updates = new Map<string, string>();
  /** The DELETE by primary key; undefined for an entity whose key has several columns. */
  private readonly deleteSql: string | undefined;

  constructor(
    private readonly ds: DataSource,
    entity: EntityTarget<T>,
  ) {
    this.metadata = ds.getMetadata(entity);
    this.columns = this.metadata.columns.filter((c) => !c.isVirtual);
    const [key, ...more] = this.metadata.primaryColumns;
    if (!key) throw new Error(`RowWriter needs a primary key: ${this.metadata.name}`);
    this.deleteSql = more.length
      ? undefined
      : `DELETE FROM ${this.table} WHERE ${this.q(key.databaseName)} = ?`;
  }

  private get table(): string {
    return this.q(this.metadata.tableName);
  }

  private q(name: string): string {
    return this.ds.driver.escape(name);
  }

  /** Inserts `entity`; a unique or foreign key violation throws as the builder's would. */
  async insert(entity: T, manager?: EntityManager): Promise<void> {
    const { mask, values } = this.valuesOf(entity);
    await this.write(this.insertSql(mask, 1), values, manager);
  }

  /**
   * Inserts `entities` with one multi-row statement per run of entities that have values for the
   * same columns, in order. The caller bounds how many (every driver limits bound parameters).
   * Batches of varying size belong in a transaction (its manager runs them as text): on their own,
   * each row count would be a prepared statement of its own on MySQL/MariaDB.
   */
  async insertMany(entities: readonly T[], manager?: EntityManager): Promise<void> {
    const rows = entities.map((e) => this.valuesOf(e));
    for (let start = 0; start < rows.length;) {
      const { mask } = rows[start];
      let end = start + 1;
      while (end < rows.length && rows[end].mask === mask) end++;
      const values = rows.slice(start, end).flatMap((r) => r.values);
      await this.write(this.insertSql(mask, end - start), values, manager);
      start = end;
    }
  }

  /**
   * Sets the properties `changes` has a value for (null included) on the rows `where` matches, as
   * the builder's `update(where, changes)` would; resolves with how many rows changed. Nothing is
   * filled in: the entities that use it have no update-date or version columns.
   */
  async update(changes: Partial<T>, where: RowMatch<T>, manager?: EntityManager): Promise<number> {
    const driver = this.ds.driver;
    const set = Object.keys(changes).filter((k) => changes[k] !== undefined);
    const matched = Object.keys(where);
    if (!set.length || !matched.length) throw new Error('RowWriter.update: a change and a match are needed');
    const values = set.map((k) => driver.preparePersistentValue(changes[k], this.column(k)));
    /** Per matched property: how many values it may take (a list), one value (null), or IS NULL (0). */
    const lengths: (number | null)[] = [];
    for (const key of matched) {
      const wanted: unknown = where[key];
      const column = this.column(key);
      if (Array.isArray(wanted)) {
        if (!wanted.length) return 0;
        for (const v of wanted) values.push(driver.preparePersistentValue(v, column));
        lengths.push(wanted.length);
      } else if (wanted === null) {
        if (!column.isNullable) throw new Error(`RowWriter.update: ${key} is never NULL`);
        lengths.push(0);
      } else {
        if (wanted === undefined) throw new Error(`RowWriter.update: match ${key} on a value`);
        values.push(driver.preparePersistentValue(wanted, column));
        lengths.push(null);
      }
    }
    return this.write(this.updateSql(set, matched, lengths), values, manager);
  }

  /** Deletes the row with this primary key; resolves with whether there was one. */
  async deleteById(id: string, manager?: EntityManager): Promise<boolean> {
    if (!this.deleteSql) throw new Error(`deleteById needs a single primary key: ${this.metadata.name}`);
    return (await this.write(this.deleteSql, [id], manager)) > 0;
  }

  private write(sql: string, params: unknown[], manager?: EntityManager): Promise<number> {
    return manager?.queryRunner ? writeWith(manager, sql, params) : runStatement(this.ds, sql, params);
  }

  /** The values to bind, as the driver stores them, and which columns have one ('1') or not ('0'). */
  private valuesOf(entity: T): { mask: string; values: unknown[] } {
    const driver = this.ds.driver;
    const values: unknown[] = [];
    let mask = '';
    for (const column of this.columns) {
      const value: unknown = column.getEntityValue(entity);
      if (value === undefined) {
        mask += '0';
        continue;
      }
      mask += '1';
      values.push(driver.preparePersistentValue(value, column));
    }
    return { mask, values };
  }

  private column(property: string): ColumnMetadata {
    const column = this.metadata.findColumnWithPropertyName(property);
    if (!column || column.isVirtual)
      throw new Error(`RowWriter: no column for ${this.metadata.name}.${property}`);
    return column;
  }

  /** `UPDATE … SET a = ?, … WHERE b = ? AND c IN (?, ?) AND d IS NULL`, built once per shape of `update`. */
  private updateSql(set: string[], matched: string[], lengths: (number | null)[]): string {
    const shape = `${set.join(',')}|${matched.map((k, i) => `${k}:${lengths[i] ?? ''}`).join(',')}`;
    let sql = this.updates.get(shape);
    if (sql === undefined) {
      const name = (k: string) => this.q(this.column(k).databaseName);
      const conditions = matched.map((k, i) => {
        const n = lengths[i];
        if (n === null) return `${name(k)} = ?`;
        return n === 0 ? `${name(k)} IS NULL` : `${name(k)} IN (${Array(n).fill('?').join(', ')})`;
      });
      sql = `UPDATE ${this.table} SET ${set.map((k) => `${name(k)} = ?`).join(', ')} WHERE ${conditions.join(' AND ')}`;
      this.updates.set(shape, sql);
    }
    return sql;
  }

  /** `INSERT … VALUES (…)` for `rows` rows of the columns `mask` names; one-row texts are kept. */
  private insertSql(mask: string, rows: number): string {
    let head = this.inserts.get(mask);
    if (head === undefined) {
      const named = this.columns.filter((_, i) => mask[i] === '1');
      const names = named.map((c) => this.q(c.databaseName)).join(', ');
      head = `INSERT INTO ${this.table} (${names}) VALUES (${named.map(() => '?').join(', ')})`;
      this.inserts.set(mask, head);
    }
    if (rows === 1) return head;
    const row = head.slice(head.lastIndexOf('('));
    return head + `, ${row}`.repeat(rows - 1);
  }
}

import { DataSource, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';

/**
 * Reads whole entities with plain SQL for the hottest lookups. TypeORM's find/query-builder paths
 * rebuild and re-parse the same SQL and walk its metadata on every call, which shows up as a large
 * share of a request's CPU; here the column list is built once and rows are hydrated with the
 * driver's own conversions (dates, booleans, transformers), so entities read the same as TypeORM's.
 */
const ID_CHUNK = 500;

export class RowReader<T extends ObjectLiteral> {
  private readonly metadata: EntityMetadata;
  private readonly columns: ColumnMetadata[];

  constructor(
    private readonly ds: DataSource,
    entity: EntityTarget<T>,
  ) {
    this.metadata = ds.getMetadata(entity);
    this.columns = this.metadata.columns.filter((c) => !c.isVirtual);
  }

  /** The entity's table name, quoted for this database. */
  get table(): string {
    return this.ds.driver.escape(this.metadata.tableName);
  }

  /** `a.col1 AS a_col1, a.col2 AS a_col2, …`: the select list for this entity under `alias`. */
  select(alias: string): string {
    const q = (name: string) => this.ds.driver.escape(name);
    return this.columns.map((c) => `${alias}.${q(c.databaseName)} AS ${this.named(alias, c)}`).join(', ');
  }

  /**
   * `NULL AS a_col1, NULL AS a_col2, …`: the same column names as `select(alias)` without a row,
   * for the parts of a `UNION` that carry something else.
   */
  nulls(alias: string): string {
    return this.columns.map((c) => `NULL AS ${this.named(alias, c)}`).join(', ');
  }

  /** The quoted result-column name of `column` under `alias`, as `hydrate` reads it back. */
  private named(alias: string, column: ColumnMetadata): string {
    return this.ds.driver.escape(`${alias}_${column.databaseName}`);
  }

  /** The entity in `row`, read from the columns `select(alias)` named. */
  hydrate(row: Record<string, unknown>, alias: string): T {
    const entity = this.metadata.create() as T;
    for (const column of this.columns) {
      column.setEntityValue(
        entity,
        this.ds.driver.prepareHydratedValue(row[`${alias}_${column.databaseName}`], column),
      );
    }
    return entity;
  }

  /**
   * The entities with these primary keys (any order; unknown ids are skipped). Large id lists go
   * in chunks, well below every driver's limit on bound parameters.
   */
  async byIds(ids: readonly string[]): Promise<T[]> {
    const unique = [...new Set(ids)];
    const [key] = this.metadata.primaryColumns;
    const table = this.table;
    const out: T[] = [];
    for (let i = 0; i < unique.length; i += ID_CHUNK) {
      const chunk = unique.slice(i, i + ID_CHUNK);
      const marks = chunk.map(() => '?').join(', ');
      out.push(
        ...(await this.many(
          `SELECT ${this.select('t')} FROM ${table} t WHERE t.${this.ds.driver.escape(key.databaseName)} IN (${marks})`,
          chunk,
          't',
        )),
      );
    }
    return out;
  }

  /** Runs a query whose rows carry this entity under `alias`, returning the entities. */
  async many(sql: string, params: unknown[], alias: string): Promise<T[]> {
    const rows: Record<string, unknown>[] = await this.ds.query(sql, params);
    return rows.map((row) => this.hydrate(row, alias));
  }
}

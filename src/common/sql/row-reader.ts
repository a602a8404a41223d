import { DataSource, EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { readRows, readRowsWith } from '../../persistence/pool-reads';

/**
 * Reads whole entities with plain SQL for the hottest lookups. TypeORM's find/query-builder paths
 * rebuild and re-parse the same SQL and walk its metadata on every call, which shows up as a large
 * share of a request's CPU; here the column list is built once and rows are hydrated with the
 * driver's own conversions (dates, booleans, transformers), so entities read the same as TypeORM's.
 * With a transaction's manager a read runs on its connection (it sees the transaction's writes),
 * otherwise on the pool.
 */
const ID_CHUNK = 500;

export class RowReader<T extends ObjectLiteral> {
  private readonly metadata: EntityMetadata;
  private readonly columns: ColumnMetadata[];
  /** Per column: its value is a plain property of the entity (not inside an embedded object). */
  private readonly plain: boolean[];
  /** Per alias: the result-column name of each column, built once. */
  private readonly keys = new Map<string, string[]>();
  private readonly selects = new Map<string, string>();
  private readonly nullLists = new Map<string, string>();

  /**
   * `hidden`: the entity's columns marked `select: false` that this reader reads all the same
   * (the others it leaves out, as TypeORM's finds do, and their properties stay unset).
   */
  constructor(
    private readonly ds: DataSource,
    entity: EntityTarget<T>,
    hidden: readonly (keyof T & string)[] = [],
  ) {
    this.metadata = ds.getMetadata(entity);
    this.columns = this.metadata.columns.filter(
      (c) => !c.isVirtual && (c.isSelect || hidden.includes(c.propertyName)),
    );
    this.plain = this.columns.map((c) => !c.embeddedMetadata);
  }

  get dataSource(): DataSource {
    return this.ds;
  }

  /** The quoted column of the entity's property `property`; throws for a property it lacks. */
  columnOf(property: string): string {
    const column = this.metadata.findColumnWithPropertyName(property);
    if (!column) throw new Error(`${this.metadata.name} has no property ${property}`);
    return this.ds.driver.escape(column.databaseName);
  }

  /** The entity's table name, quoted for this database. */
  get table(): string {
    return this.ds.driver.escape(this.metadata.tableName);
  }

  /** `a.col1 AS a_col1, a.col2 AS a_col2, …`: the select list for this entity under `alias`. */
  select(alias: string): string {
    return this.memo(this.selects, alias, () => {
      const q = (name: string) => this.ds.driver.escape(name);
      return this.columns.map((c) => `${alias}.${q(c.databaseName)} AS ${this.named(alias, c)}`).join(', ');
    });
  }

  /**
   * `NULL AS a_col1, NULL AS a_col2, …`: the same column names as `select(alias)` without a row,
   * for the parts of a `UNION` that carry something else.
   */
  nulls(alias: string): string {
    return this.memo(this.nullLists, alias, () =>
      this.columns.map((c) => `NULL AS ${this.named(alias, c)}`).join(', '),
    );
  }

  /** What depends only on the alias is built once per alias (aliases are a handful of literals). */
  private memo<V>(lists: Map<string, V>, alias: string, build: () => V): V {
    let list = lists.get(alias);
    if (list === undefined) {
      list = build();
      lists.set(alias, list);
    }
    return list;
  }

  /** The quoted result-column name of `column` under `alias`, as `hydrate` reads it back. */
  private named(alias: string, column: ColumnMetadata): string {
    return this.ds.driver.escape(`${alias}_${column.databaseName}`);
  }

  /** The entity in `row`, read from the columns `select(alias)` named. */
  hydrate(row: Record<string, unknown>, alias: string): T {
    const entity = this.metadata.create() as T;
    const keys = this.keysOf(alias);
    const driver = this.ds.driver;
    for (let i = 0; i < this.columns.length; i++) {
      const column = this.columns[i];
      const value: unknown = driver.prepareHydratedValue(row[keys[i]], column);
      // What setEntityValue does for a real column outside embeddeds, without its checks per value.
      if (this.plain[i]) (entity as Record<string, unknown>)[column.propertyName] = value;
      else column.setEntityValue(entity, value);
    }
    return entity;
  }

  private keysOf(alias: string): string[] {
    return this.memo(this.keys, alias, () => this.columns.map((c) => `${alias}_${c.databaseName}`));
  }

  /** The entity with this primary key, or null: one plain statement. */
  async byId(id: string, manager?: EntityManager): Promise<T | null> {
    const [entity] = await this.byIds([id], manager);
    return entity ?? null;
  }

  /** The primary key column of an entity whose key is one column (what the lookups by id need). */
  private singleKey() {
    const [key, ...more] = this.metadata.primaryColumns;
    if (!key || more.length)
      throw new Error(`a lookup by id needs a single primary key: ${this.metadata.name}`);
    return key;
  }

  /**
   * The entity with this primary key, its row locked until `manager`'s transaction ends where the
   * database has row locks (SQLite's writers take turns anyway, so there it is a plain read); null
   * when it does not exist.
   */
  async lockedById(id: string, manager: EntityManager): Promise<T | null> {
    const key = this.singleKey();
    const lock = this.ds.options.type === 'better-sqlite3' ? '' : ' FOR UPDATE';
    const [entity] = await this.many(
      `SELECT ${this.select('t')} FROM ${this.table} t WHERE t.${this.ds.driver.escape(key.databaseName)} = ?${lock}`,
      [id],
      't',
      manager,
    );
    return entity ?? null;
  }

  /**
   * The entities with these primary keys (any order; unknown ids are skipped). Large id lists go
   * in chunks, well below every driver's limit on bound parameters.
   */
  async byIds(ids: readonly string[], manager?: EntityManager): Promise<T[]> {
    const unique = [...new Set(ids)];
    const key = this.singleKey();
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
          manager,
        )),
      );
    }
    return out;
  }

  /** Runs a query whose rows carry this entity under `alias`, returning the entities. */
  async many(sql: string, params: unknown[], alias: string, manager?: EntityManager): Promise<T[]> {
    const rows = manager ? await readRowsWith(manager, sql, params) : await readRows(this.ds, sql, params);
    return rows.map((row) => this.hydrate(row, alias));
  }
}

import { DataSource, EntityManager, ObjectLiteral } from 'typeorm';
import { offsetOf, PageParams } from '../jsonapi/pagination';
import { readRows, readRowsWith } from '../../persistence/pool-reads';
import { Page, pageOf, WINDOW_TOTAL, windowTotal } from './paginate';
import { RowReader } from './row-reader';

/**
 * A WHERE clause for plain SQL, built from conditions written with TypeORM's named parameters
 * (`:org`, `:...names`), so the subqueries other modules hand over (IdSubquery) embed unchanged.
 * `expand` turns it into the driver's positional form once per statement.
 */
export class SqlConditions {
  private readonly parts: string[] = [];
  private readonly params: Record<string, unknown> = {};

  /** Adds `sql` (a condition) and its named parameters. */
  and(sql: string, parameters: Record<string, unknown> = {}): this {
    this.parts.push(sql);
    Object.assign(this.params, parameters);
    return this;
  }

  /** `column IN (:...name)`, or no row at all for an empty list. */
  in(column: string, name: string, values: readonly unknown[]): this {
    return values.length ? this.and(`${column} IN (:...${name})`, { [name]: values }) : this.and('1 = 0');
  }

  /** `WHERE a AND b …`, or nothing when there is no condition. */
  get sql(): string {
    return this.parts.length ? `WHERE ${this.parts.map((p) => `(${p})`).join(' AND ')}` : '';
  }

  get parameters(): Record<string, unknown> {
    return this.params;
  }
}

/** `sql` with its named parameters (`:name`, `:...list`) in the driver's positional form. */
export function expand(
  ds: DataSource,
  sql: string,
  parameters: Record<string, unknown>,
): [string, unknown[]] {
  return ds.driver.escapeQueryWithParameters(sql, parameters) as [string, unknown[]];
}

/** A list query of one entity: its rows come from `from` under `alias`, in `orderBy` by default. */
export interface SqlList {
  /** The table (and any joins) after FROM, the listed entity's table under `alias`. */
  from: string;
  alias: string;
  where: SqlConditions;
  /** The default order, stable (its last key unique): `p.name ASC, p.id ASC`. */
  orderBy: string;
}

/**
 * The order `sort` asked for (see `@Sortable`) in place of the list's own, each key a property of
 * the listed entity, `id` last so that equal keys keep one order across pages: what `sorted` does
 * for a query builder.
 */
export function orderOf<T extends ObjectLiteral>(
  reader: RowReader<T>,
  list: SqlList,
  page: PageParams,
): string {
  if (!page.sort?.length) return list.orderBy;
  const keys = page.sort.map(
    (key) => `${list.alias}.${reader.columnOf(key.property)} ${key.descending ? 'DESC' : 'ASC'}`,
  );
  const last = page.sort[page.sort.length - 1].descending ? 'DESC' : 'ASC';
  return [...keys, `${list.alias}.${reader.columnOf('id')} ${last}`].join(', ');
}

/** The statement reading one page of `list`, with `columns` added to the entity's own. */
function pageStatement<T extends ObjectLiteral>(
  reader: RowReader<T>,
  list: SqlList,
  page: PageParams,
  columns = '',
): [string, unknown[]] {
  return expand(
    reader.dataSource,
    `SELECT ${reader.select(list.alias)}${columns} FROM ${list.from} ${list.where.sql} ` +
      `ORDER BY ${orderOf(reader, list, page)} LIMIT :pageLimit OFFSET :pageOffset`,
    { ...list.where.parameters, pageLimit: page.size, pageOffset: offsetOf(page) },
  );
}

/**
 * A page of entities in plain SQL (see RowReader): the page and its count, two statements sent
 * at once, as `paginate` does for a query builder. With a transaction's manager both run on its
 * connection, one after the other.
 */
export async function paginateRows<T extends ObjectLiteral>(
  reader: RowReader<T>,
  list: SqlList,
  page: PageParams,
  manager?: EntityManager,
): Promise<Page<T>> {
  const ds = reader.dataSource;
  const { alias } = list;
  const [pageSql, pageParams] = pageStatement(reader, list, page);
  const count = () => countRows(ds, list, manager);
  if (manager) {
    const items = await reader.many(pageSql, pageParams, alias, manager);
    return pageOf(items, await count(), page);
  }
  const [items, totalCount] = await Promise.all([reader.many(pageSql, pageParams, alias), count()]);
  return pageOf(items, totalCount, page);
}

/**
 * One round trip for lists that stay short: the page with the total beside each row (see
 * `paginateCounted`); only a page past the end asks for the count apart.
 */
export async function paginateRowsCounted<T extends ObjectLiteral>(
  reader: RowReader<T>,
  list: SqlList,
  page: PageParams,
): Promise<Page<T>> {
  const ds = reader.dataSource;
  const [sql, params] = pageStatement(reader, list, page, `, ${WINDOW_TOTAL}`);
  const rows = await readRows(ds, sql, params);
  const totalCount = await windowTotal(rows, () => countRows(ds, list));
  return pageOf(
    rows.map((row) => reader.hydrate(row, list.alias)),
    totalCount,
    page,
  );
}

/** How many rows `list` holds. */
export async function countRows(ds: DataSource, list: SqlList, manager?: EntityManager): Promise<number> {
  const [sql, params] = expand(
    ds,
    `SELECT COUNT(*) AS n FROM ${list.from} ${list.where.sql}`,
    list.where.parameters,
  );
  const [row] = manager
    ? await readRowsWith<{ n: unknown }>(manager, sql, params)
    : await readRows<{ n: unknown }>(ds, sql, params);
  return Number(row?.n ?? 0);
}

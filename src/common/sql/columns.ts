import { Column, ColumnOptions, DataSource, ObjectType, ValueTransformer } from 'typeorm';

/** A millisecond-precision UTC timestamp, set by the service (never a database default). */
export function TimestampColumn(options: ColumnOptions = {}): PropertyDecorator {
  return Column({ type: 'datetime', precision: 3, ...options });
}

/** Booleans as they read on both dialects. */
export function BoolColumn(options: ColumnOptions = {}): PropertyDecorator {
  return Column({ type: 'boolean', default: false, ...options });
}

const WRAPPED: ValueTransformer = {
  to: (value: string | null | undefined) => (value === null || value === undefined ? value : { v: value }),
  from: (stored: { v: string } | null) => (stored === null ? null : stored.v),
};

/**
 * A nullable string of any length (a variable's value reaches 256 KB) in a JSON column, stored as
 * `{"v": value}`: a bare JSON string such as `"2"` or `"null"` would be parsed a second time on its
 * way back from MySQL.
 */
export function JsonStringColumn(): PropertyDecorator {
  return Column({ type: 'json', nullable: true, transformer: WRAPPED });
}

/**
 * A value as the driver binds it for `property` of `entity` (its column's own conversion: dates,
 * JSON, transformers), for hand-written SQL that writes or compares that column.
 */
export function columnValue(
  ds: DataSource,
  entity: ObjectType<unknown>,
  property: string,
  value: unknown,
): unknown {
  const column = ds.getMetadata(entity).findColumnWithPropertyName(property)!;
  return ds.driver.preparePersistentValue(value, column);
}

/**
 * A timestamp as the driver binds it for `property` of `entity`, for hand-written SQL that compares
 * a column with a time (better-sqlite3 takes no Date; the column's own conversion does).
 */
export function timeOf(ds: DataSource, entity: ObjectType<unknown>, property: string, at: Date): unknown {
  return columnValue(ds, entity, property, at);
}

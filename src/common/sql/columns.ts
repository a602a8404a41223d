import { Column, ColumnOptions } from 'typeorm';

/** A millisecond-precision UTC timestamp, set by the service (never a database default). */
export function TimestampColumn(options: ColumnOptions = {}): PropertyDecorator {
  return Column({ type: 'datetime', precision: 3, ...options });
}

/** Booleans as they read on both dialects. */
export function BoolColumn(options: ColumnOptions = {}): PropertyDecorator {
  return Column({ type: 'boolean', default: false, ...options });
}

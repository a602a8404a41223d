import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { RowReader } from '../common/sql/row-reader';
import { RowWriter } from '../common/sql/row-writer';
import { columnValue } from '../common/sql/columns';
import { replaceSealed, writeWith } from '../common/sql/transaction';
import { RunVariableSnapshotEntity } from './entities/run-variable-snapshot.entity';

/**
 * Runs' sealed variable snapshots, in plain SQL (RowReader, RowWriter): a plan's claim writes one,
 * an apply's claim reads it and the run's end deletes it, so every run passes here three times.
 */
@Injectable()
export class RunSnapshotsRepository {
  private readonly rows: RowReader<RunVariableSnapshotEntity>;
  private readonly writes: RowWriter<RunVariableSnapshotEntity>;
  /** One statement that inserts the run's snapshot or replaces the one it had. */
  private readonly upsertSql: string;

  constructor(@InjectDataSource() private readonly ds: DataSource) {
    this.rows = new RowReader(ds, RunVariableSnapshotEntity);
    this.writes = new RowWriter(ds, RunVariableSnapshotEntity);
    const [runId, sealed] = [this.rows.columnOf('runId'), this.rows.columnOf('sealedVariables')];
    this.upsertSql =
      `INSERT INTO ${this.rows.table} (${runId}, ${sealed}) VALUES (?, ?) ` +
      (ds.options.type === 'better-sqlite3'
        ? `ON CONFLICT (${runId}) DO UPDATE SET ${sealed} = excluded.${sealed}`
        : `ON DUPLICATE KEY UPDATE ${sealed} = VALUES(${sealed})`);
  }

  /** In the caller's transaction: the run's snapshot is `sealed` from now on. */
  async put(manager: EntityManager, runId: string, sealed: string): Promise<void> {
    const value = columnValue(this.ds, RunVariableSnapshotEntity, 'sealedVariables', sealed);
    await writeWith(manager, this.upsertSql, [runId, value]);
  }

  /** The run's sealed snapshot, if one was taken and not dropped. */
  async sealedOf(runId: string): Promise<string | null> {
    return (await this.rows.byId(runId))?.sealedVariables ?? null;
  }

  async drop(manager: EntityManager, runId: string): Promise<void> {
    await this.writes.deleteById(runId, manager);
  }

  /** A key rotation's batch: the snapshots after `afterId` in id order, sealed. */
  async sealedAfter(afterId: string, limit: number): Promise<{ id: string; wrapped: string }[]> {
    const { rows } = this;
    const key = rows.columnOf('runId');
    const found = await rows.many(
      `SELECT ${rows.select('s')} FROM ${rows.table} s WHERE s.${key} > ? ORDER BY s.${key} LIMIT ${Number(limit)}`,
      [afterId],
      's',
    );
    return found.map((r) => ({ id: r.runId, wrapped: r.sealedVariables }));
  }

  replaceSealedValue(manager: EntityManager, runId: string, from: string, to: string): Promise<boolean> {
    return replaceSealed(manager, RunVariableSnapshotEntity, { runId }, 'sealedVariables', from, to);
  }
}

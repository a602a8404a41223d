import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { RowReader } from '../common/sql/row-reader';
import { RowWriter } from '../common/sql/row-writer';
import { lockRow, writeWith } from '../common/sql/transaction';
import { readRows } from '../persistence/pool-reads';
import { RunJobEntity } from './entities/run-job.entity';
import { RunLogChunkEntity } from './entities/run-log-chunk.entity';
import { RunLogEntity } from './entities/run-log.entity';
import { PHASE_STATUSES, isPhaseEnded } from './run-rules';

/** The phase statuses that end a log, as SQL literals (they are constants). */
const ENDED = PHASE_STATUSES.filter(isPhaseEnded)
  .map((s) => `'${s}'`)
  .join(', ');

/**
 * Logs of plans and applies: where each stands, and the chunks of those still being written. In
 * plain SQL (RowReader, RowWriter): every append of a running executor and every read of a log.
 */
@Injectable()
export class RunLogsRepository {
  private readonly logs: RowReader<RunLogEntity>;
  private readonly chunks: RowReader<RunLogChunkEntity>;
  private readonly logWrites: RowWriter<RunLogEntity>;

  constructor(@InjectDataSource() private readonly ds: DataSource) {
    this.logs = new RowReader(ds, RunLogEntity);
    this.chunks = new RowReader(ds, RunLogChunkEntity);
    this.logWrites = new RowWriter(ds, RunLogEntity);
  }

  /**
   * Serialises the appends of one job with each other and with whatever ends the job (its report,
   * a timeout, a force-cancel all write the job's row): once a phase has ended, no append lands.
   */
  lockJob(manager: EntityManager, jobId: string): Promise<boolean> {
    return lockRow(manager, RunJobEntity, jobId);
  }

  find(phaseId: string, manager?: EntityManager): Promise<RunLogEntity | null> {
    return this.logs.byId(phaseId, manager);
  }

  findMany(phaseIds: readonly string[]): Promise<RunLogEntity[]> {
    return phaseIds.length ? this.logs.byIds(phaseIds) : Promise.resolve([]);
  }

  async save(manager: EntityManager, log: RunLogEntity, isNew: boolean): Promise<void> {
    if (isNew) {
      await this.logWrites.insert(log, manager);
    } else {
      const { size, dropped, updatedAt } = log;
      await this.logWrites.update({ size, dropped, updatedAt }, { phaseId: log.phaseId }, manager);
    }
  }

  /** The chunk rows holding any of the bytes `[from, to)`, in order. */
  chunksBetween(
    phaseId: string,
    from: number,
    to: number,
    manager?: EntityManager,
  ): Promise<RunLogChunkEntity[]> {
    return this.chunks.many(
      `SELECT ${this.chunks.select('c')} FROM run_log_chunks c ` +
        'WHERE c.phase_id = ? AND c.end_byte > ? AND c.first_byte < ? ORDER BY c.first_byte',
      [phaseId, from, to],
      'c',
      manager,
    );
  }

  /**
   * A few rows at a time (an append is at most 1 MiB, 18 rows), in one statement. Not RowWriter's
   * insertMany: a chunk's key is its phase and first byte.
   */
  async insertChunks(manager: EntityManager, rows: RunLogChunkEntity[]): Promise<void> {
    if (!rows.length) return;
    await writeWith(
      manager,
      'INSERT INTO run_log_chunks (phase_id, first_byte, end_byte, data) VALUES ' +
        rows.map(() => '(?, ?, ?, ?)').join(', '),
      rows.flatMap((r) => [r.phaseId, r.firstByte, r.endByte, r.data]),
    );
  }

  /** Removes the chunk rows that end at or before `byte` (the cut head). */
  async deleteChunksBefore(manager: EntityManager, phaseId: string, byte: number): Promise<void> {
    await writeWith(manager, 'DELETE FROM run_log_chunks WHERE phase_id = ? AND end_byte <= ?', [
      phaseId,
      byte,
    ]);
  }

  async deleteChunk(manager: EntityManager, phaseId: string, firstByte: number): Promise<void> {
    await writeWith(manager, 'DELETE FROM run_log_chunks WHERE phase_id = ? AND first_byte = ?', [
      phaseId,
      firstByte,
    ]);
  }

  /** Marks the log as moved to the blob store and drops its rows; false when another node did. */
  async archive(manager: EntityManager, phaseId: string, at: Date): Promise<boolean> {
    const moved = await this.logWrites.update(
      { archived: true, updatedAt: at },
      { phaseId, archived: false },
      manager,
    );
    if (moved) await writeWith(manager, 'DELETE FROM run_log_chunks WHERE phase_id = ?', [phaseId]);
    return moved > 0;
  }

  /** Logs still in rows whose phase has ended: the next ones to move to the blob store. */
  async endedInRows(limit: number): Promise<{ phaseId: string; runId: string }[]> {
    const rows = await readRows<{ phase_id: string; run_id: string }>(
      this.ds,
      'SELECT l.phase_id, p.run_id FROM run_logs l JOIN run_phases p ON p.id = l.phase_id ' +
        `WHERE l.archived = 0 AND p.status IN (${ENDED}) ORDER BY l.updated_at LIMIT ${Number(limit)}`,
      [],
    );
    return rows.map((r) => ({ phaseId: r.phase_id, runId: r.run_id }));
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { writeWith } from '../common/sql/transaction';
import { readRows } from '../persistence/pool-reads';
import { RunPhaseEntity } from './entities/run-phase.entity';
import { PHASE_STATUSES, isPhaseEnded } from './run-rules';
import { timeOf } from '../common/sql/columns';

/** The phase statuses that end a phase, as SQL literals (they are constants). */
const ENDED = PHASE_STATUSES.filter(isPhaseEnded)
  .map((s) => `'${s}'`)
  .join(', ');

export interface PhaseRef {
  phaseId: string;
  runId: string;
}

/** Where a walk over ended plans stopped: the last plan seen, by (updated_at, id). */
export interface PlanCursor {
  at: unknown;
  id: string;
}

/** The queries of run log and plan JSON retention (run-retention.service.ts). */
@Injectable()
export class RunRetentionRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Logs moved to the blob store before `before`, oldest first. A log is moved within seconds of
   * its phase's end, so this is when the phase ended; the `(archived, updated_at)` index answers it.
   */
  async logsArchivedBefore(before: Date, limit: number): Promise<PhaseRef[]> {
    const rows = await readRows<{ phase_id: string; run_id: string }>(
      this.ds,
      'SELECT l.phase_id, p.run_id FROM run_logs l JOIN run_phases p ON p.id = l.phase_id ' +
        `WHERE l.archived = 1 AND l.updated_at < ? ORDER BY l.updated_at LIMIT ${Number(limit)}`,
      [timeOf(this.ds, RunPhaseEntity, 'updatedAt', before)],
    );
    return rows.map((r) => ({ phaseId: r.phase_id, runId: r.run_id }));
  }

  /**
   * Deletes the rows of these archived logs; how many this call deleted. The condition makes
   * it safe beside another process pruning the same rows: each row goes once.
   */
  deleteArchivedLogs(manager: EntityManager, phaseIds: string[]): Promise<number> {
    return writeWith(
      manager,
      `DELETE FROM run_logs WHERE archived = 1 AND phase_id IN (${phaseIds.map(() => '?').join(', ')})`,
      phaseIds,
    );
  }

  /**
   * Plans that ended before `before`, after `cursor`, in (updated_at, id) order. On MariaDB the
   * statement names its index: left to itself the optimizer reads the plans from the first (a
   * `ref` on the kind, the dates checked entry by entry) rather than seeking to the cursor, 30 ms
   * instead of 2 ms a step at 200,000 plans.
   */
  async plansEndedBefore(
    before: Date,
    cursor: PlanCursor | undefined,
    limit: number,
  ): Promise<(PhaseRef & { cursor: PlanCursor })[]> {
    const mysql = this.ds.options.type !== 'better-sqlite3';
    const hint = mysql ? ' FORCE INDEX (ix_run_phases_kind_updated)' : '';
    const after = cursor ? ' AND p.updated_at >= ? AND (p.updated_at > ? OR p.id > ?)' : '';
    const rows = await readRows<{ id: string; run_id: string; updated_at: unknown }>(
      this.ds,
      `SELECT p.id, p.run_id, p.updated_at FROM run_phases p${hint} ` +
        `WHERE p.kind = 'plan' AND p.status IN (${ENDED}) AND p.updated_at < ?${after} ` +
        `ORDER BY p.updated_at, p.id LIMIT ${Number(limit)}`,
      [
        timeOf(this.ds, RunPhaseEntity, 'updatedAt', before),
        ...(cursor ? [cursor.at, cursor.at, cursor.id] : []),
      ],
    );
    return rows.map((r) => ({ phaseId: r.id, runId: r.run_id, cursor: { at: r.updated_at, id: r.id } }));
  }
}

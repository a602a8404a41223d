import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { RowReader } from '../../common/sql/row-reader';
import { RowWriter } from '../../common/sql/row-writer';
import { runStatement, writeWith } from '../../common/sql/transaction';
import { readRows, readRowsWith } from '../../persistence/pool-reads';
import { RunJobEntity } from '../entities/run-job.entity';
import { RunPhaseEntity } from '../entities/run-phase.entity';
import { RunEntity } from '../entities/run.entity';
import { FINAL_STATUSES, JobStatus } from '../run-rules';
import { UNSEEN_WRITE } from '../../persistence/statement-tables';
import { timeOf } from '../../common/sql/columns';

/** Which jobs an agent may take: its pool's, and unassigned ones when the pool serves the organization. */
export interface ClaimScope {
  poolId: string;
  organizationId: string;
  organizationScoped: boolean;
}

/** A queued job a claim may take, with its run and its phase (null for a job without one). */
export interface ClaimCandidate {
  job: RunJobEntity;
  run: RunEntity;
  phase: RunPhaseEntity | null;
}

/** Executor jobs, in plain SQL (RowReader, RowWriter): every claim, poll, heartbeat and report. */
@Injectable()
export class RunJobsRepository {
  /** Every claim, heartbeat and report reads its job: without TypeORM's find (RowReader). */
  private readonly jobs: RowReader<RunJobEntity>;
  private readonly writes: RowWriter<RunJobEntity>;
  private readonly runs: RowReader<RunEntity>;
  private readonly phases: RowReader<RunPhaseEntity>;

  constructor(@InjectDataSource() private readonly ds: DataSource) {
    this.jobs = new RowReader(ds, RunJobEntity);
    this.writes = new RowWriter(ds, RunJobEntity);
    // An apply's claim opens the variables its plan's claim fixed: read with the run.
    this.runs = new RowReader(ds, RunEntity, ['variableSnapshot']);
    this.phases = new RowReader(ds, RunPhaseEntity);
  }

  /** With a transaction's manager: read on its connection. */
  findById(id: string, manager?: EntityManager): Promise<RunJobEntity | null> {
    return this.jobs.byId(id, manager);
  }

  /**
   * The oldest queued jobs the scope may take, each with its run and its phase (null for a job
   * without one): the whole of an idle poll, one lookup on ix_run_jobs_claimable. A few candidates
   * let concurrent claimers spread out instead of all racing for the first row. A claim then takes
   * one by compare-and-set and moves its run and phase by compare-and-set too, so what is read here
   * serves the claim without reading the job again. With a transaction's manager: read on its
   * connection.
   */
  async candidates(scope: ClaimScope, limit: number, manager?: EntityManager): Promise<ClaimCandidate[]> {
    const { jobs, runs, phases } = this;
    const params: unknown[] = ['queued', scope.poolId];
    let sql =
      `SELECT ${jobs.select('j')}, ${runs.select('r')}, ${phases.select('p')} FROM ${jobs.table} j` +
      ` JOIN ${runs.table} r ON r.id = j.run_id` +
      ` LEFT JOIN ${phases.table} p ON p.id = j.phase_id AND p.run_id = r.id` +
      ' WHERE j.status = ? AND (j.agent_pool_id = ?';
    if (scope.organizationScoped) {
      sql += ' OR (j.agent_pool_id IS NULL AND j.organization_id = ?)';
      params.push(scope.organizationId);
    }
    sql += `) ORDER BY j.created_at, j.id LIMIT ${Number(limit)}`;
    const rows = await (manager
      ? readRowsWith<Record<string, unknown>>(manager, sql, params)
      : readRows<Record<string, unknown>>(this.ds, sql, params));
    return rows.map((row) => ({
      job: jobs.hydrate(row, 'j'),
      run: runs.hydrate(row, 'r'),
      phase: row.p_id === null || row.p_id === undefined ? null : phases.hydrate(row, 'p'),
    }));
  }

  /**
   * Which of these agents hold a claimed job (they are `busy`): reads only the claimed part of
   * ix_run_jobs_heartbeat, at most one job per working agent.
   */
  async holders(agentIds: readonly string[]): Promise<Set<string>> {
    const rows = await readRows<{ agent_id: string }>(
      this.ds,
      `SELECT DISTINCT agent_id FROM run_jobs WHERE status = ? AND agent_id IN (${agentIds.map(() => '?').join(', ')})`,
      ['claimed', ...agentIds],
    );
    return new Set(rows.map((r) => r.agent_id));
  }

  /**
   * How many jobs wait in each scope (pool, or organization for jobs without a pool): the one
   * check per process that lets waiting claims learn of jobs other nodes queued. Reads only the
   * queued part of ix_run_jobs_claimable.
   */
  async queuedScopes(): Promise<{ poolId: string | null; organizationId: string; count: number }[]> {
    const rows = await readRows<{ agent_pool_id: string | null; organization_id: string; n: unknown }>(
      this.ds,
      'SELECT agent_pool_id, organization_id, COUNT(*) AS n FROM run_jobs WHERE status = ? ' +
        'GROUP BY agent_pool_id, organization_id',
      ['queued'],
    );
    return rows.map((r) => ({
      poolId: r.agent_pool_id,
      organizationId: r.organization_id,
      count: Number(r.n),
    }));
  }

  /** The compare-and-set that makes a claim exactly-once: only one agent moves a job out of `queued`. */
  async claim(manager: EntityManager, id: string, agentId: string, at: Date): Promise<boolean> {
    const changes = { status: 'claimed' as const, agentId, claimedAt: at, heartbeatAt: at };
    return (await this.writes.update(changes, { id, status: 'queued' }, manager)) > 0;
  }

  /** The agent that claimed the job (null: none yet), or undefined when there is no such job. */
  async agentOf(id: string): Promise<string | null | undefined> {
    const [row] = await readRows<{ agent_id: string | null }>(
      this.ds,
      'SELECT agent_id FROM run_jobs WHERE id = ?',
      [id],
    );
    return row ? row.agent_id : undefined;
  }

  /**
   * The heartbeat of a job this agent holds, in one statement while it goes on: false when the job
   * is not claimed by this agent (ended, someone else's, gone) or its run was canceled or ended,
   * which `heartbeatState` then tells apart. Unseen (UNSEEN_WRITE): no answer shows the time, so
   * the write ends no remembered answer and is not announced.
   */
  async heartbeat(id: string, agentId: string, at: Date): Promise<boolean> {
    const finals = FINAL_STATUSES.map(() => '?').join(', ');
    const sql =
      `${UNSEEN_WRITE}UPDATE run_jobs SET heartbeat_at = ? WHERE id = ? AND agent_id = ? AND status = ?` +
      ' AND EXISTS (SELECT 1 FROM runs r WHERE r.id = run_jobs.run_id AND r.canceled_at IS NULL' +
      ` AND r.status NOT IN (${finals}))`;
    const params = [
      timeOf(this.ds, RunJobEntity, 'heartbeatAt', at),
      id,
      agentId,
      'claimed',
      ...FINAL_STATUSES,
    ];
    return (await runStatement(this.ds, sql, params)) > 0;
  }

  /** Records the report on a claimed job; false when it was finished, timed out or canceled first. */
  async finish(
    manager: EntityManager,
    id: string,
    status: JobStatus,
    report: string | null,
    at: Date,
  ): Promise<boolean> {
    return (
      (await this.writes.update({ status, report, finishedAt: at }, { id, status: 'claimed' }, manager)) > 0
    );
  }

  /** Ends every job of a run that is still waiting or running (the run ended without them). */
  async cancelOpen(manager: EntityManager, runId: string, at: Date): Promise<void> {
    await this.writes.update(
      { status: 'canceled', finishedAt: at },
      { runId, status: ['queued', 'claimed'] },
      manager,
    );
  }

  /** Claimed jobs whose agent went quiet before `cutoff`. */
  async stale(cutoff: Date, limit: number): Promise<RunJobEntity[]> {
    const { jobs } = this;
    return jobs.many(
      `SELECT ${jobs.select('j')} FROM ${jobs.table} j WHERE j.status = ? AND j.heartbeat_at < ?` +
        ` ORDER BY j.heartbeat_at ASC LIMIT ${Number(limit)}`,
      ['claimed', timeOf(this.ds, RunJobEntity, 'heartbeatAt', cutoff)],
      'j',
    );
  }

  /** Errors a job only if it is still claimed and still quiet: one node wins when several sweep. */
  async timeOut(manager: EntityManager, id: string, cutoff: Date, at: Date): Promise<boolean> {
    const changed = await writeWith(
      manager,
      'UPDATE run_jobs SET status = ?, finished_at = ? WHERE id = ? AND status = ? AND heartbeat_at < ?',
      [
        'errored',
        timeOf(this.ds, RunJobEntity, 'heartbeatAt', at),
        id,
        'claimed',
        timeOf(this.ds, RunJobEntity, 'heartbeatAt', cutoff),
      ],
    );
    return changed > 0;
  }

  insert(manager: EntityManager, job: RunJobEntity): Promise<void> {
    return this.writes.insert(job, manager);
  }
}

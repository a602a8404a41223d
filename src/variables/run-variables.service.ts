import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, MoreThan, Repository } from 'typeorm';
import { newId } from '../common/ids';
import { Secrets } from '../secrets/secrets.service';
import { RunVariableEntity } from './entities/run-variable.entity';
import { RunVariable } from './run-variable-rules';
import { RowReader } from '../common/sql/row-reader';
import { replaceSealed } from '../common/sql/transaction';

const sealContext = (id: string) => `run-variables/${id}`;

/** The variables a run was given, sealed at rest; the runs module records them with the run. */
@Injectable()
export class RunVariablesService {
  constructor(
    @InjectRepository(RunVariableEntity) private readonly repo: Repository<RunVariableEntity>,
    private readonly secrets: Secrets,
  ) {
    this.rows = new RowReader(repo.manager.connection, RunVariableEntity);
  }

  private readonly rows: RowReader<RunVariableEntity>;

  /** Stores a new run's variables in the caller's transaction (checked by `checkRunVariables`). */
  async record(manager: EntityManager, runId: string, variables: readonly RunVariable[]): Promise<void> {
    const rows = variables.map((v, position) => {
      const id = newId('rvar');
      return { id, runId, position, key: v.key, sealedValue: this.secrets.seal(v.value, sealContext(id)) };
    });
    if (rows.length) await manager.getRepository(RunVariableEntity).insert(rows);
  }

  /** The run's variables in clear, in the order given: for the run's jobs, never for an answer. */
  async of(runId: string, manager?: EntityManager): Promise<RunVariable[]> {
    const repo = manager ? manager.getRepository(RunVariableEntity) : this.repo;
    return this.open(await repo.find({ where: { runId }, order: { position: 'ASC' } }));
  }

  /** These rows of a run's variables in clear, in their order: for the run's jobs, never for an answer. */
  open(rows: readonly RunVariableEntity[]): RunVariable[] {
    return rows.map((r) => ({
      key: r.key,
      value: this.secrets.open(r.sealedValue, sealContext(r.id)).toString('utf8'),
    }));
  }

  /**
   * The variables of each of these runs in the order given, one query. `revealer` is told which
   * runs have any and answers which values may be opened; any other value is null, never opened.
   * Runs given none are absent.
   */
  async ofRuns(
    runIds: readonly string[],
    revealer: (withVariables: string[]) => Promise<(runId: string, key: string) => boolean>,
  ): Promise<Map<string, { key: string; value: string | null }[]>> {
    const out = new Map<string, { key: string; value: string | null }[]>();
    if (!runIds.length) return out;
    const ids = [...new Set(runIds)];
    // Plain SQL (RowReader): a page of runs may carry a thousand rows, and TypeORM's find costs
    // more per row than the statement itself on MySQL.
    const rows = await this.rows.many(
      `SELECT ${this.rows.select('v')} FROM ${this.rows.table} v ` +
        `WHERE v.run_id IN (${ids.map(() => '?').join(', ')}) ORDER BY v.run_id, v.position`,
      ids,
      'v',
    );
    if (!rows.length) return out;
    const reveal = await revealer([...new Set(rows.map((r) => r.runId))]);
    for (const r of rows) {
      const value = reveal(r.runId, r.key)
        ? this.secrets.open(r.sealedValue, sealContext(r.id)).toString('utf8')
        : null;
      const list = out.get(r.runId) ?? [];
      list.push({ key: r.key, value });
      out.set(r.runId, list);
    }
    return out;
  }

  /** The keys a run was given, in order (no values). */
  async keysOf(runId: string): Promise<string[]> {
    const rows = await this.repo.find({
      select: { key: true, position: true },
      where: { runId },
      order: { position: 'ASC' },
    });
    return rows.map((r) => r.key);
  }

  async sealedValues(afterId: string, limit: number): Promise<{ id: string; wrapped: string }[]> {
    const rows = await this.repo.find({
      select: { id: true, sealedValue: true },
      where: { id: MoreThan(afterId) },
      order: { id: 'ASC' },
      take: limit,
    });
    return rows.map((r) => ({ id: r.id, wrapped: r.sealedValue }));
  }

  replaceSealedValue(manager: EntityManager, id: string, from: string, to: string): Promise<boolean> {
    return replaceSealed(manager, RunVariableEntity, { id }, 'sealedValue', from, to);
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { RowReader } from '../common/sql/row-reader';
import { readRows, readRowsWith } from '../persistence/pool-reads';
import { RunVariableEntity } from './entities/run-variable.entity';
import { VariableEntity } from './entities/variable.entity';
import { SetOrigin, SetScope } from './precedence';
import { WorkspaceRef } from './variable-sets.repository';

/** Everything that may reach a workspace's run, before precedence (precedence.ts). */
export interface ReachingVariables {
  /** The workspace's own variables. */
  own: VariableEntity[];
  /** The variables of the sets that reach the workspace, each with its set as precedence weighs it. */
  fromSets: { variable: VariableEntity; set: SetOrigin }[];
  /** The run's own variables, in the order it was given them (none without a run). */
  given: RunVariableEntity[];
}

type Row = Record<string, unknown>;

const flag = (v: unknown) => v === true || Number(v) === 1;

/** The set columns of the set part, and the same names empty for the other parts. */
const SET_COLUMNS = ['s_name', 's_priority', 's_project_id', 's_global', 's_on_workspace', 's_on_project'];
const NO_SET = SET_COLUMNS.map((c) => `NULL AS ${c}`).join(', ');

/**
 * The variables that may reach a workspace's run, read with one statement: the workspace's own,
 * those of the sets reaching it (global ones of its organization, those attached to it, those
 * attached to its project) with every way each set reaches it, and the run's own. A run's plan
 * claim takes its variable snapshot from it, in the claim's transaction.
 */
@Injectable()
export class ReachingVariablesRepository {
  private readonly vars: RowReader<VariableEntity>;
  private readonly runVars: RowReader<RunVariableEntity>;

  constructor(@InjectDataSource() private readonly ds: DataSource) {
    this.vars = new RowReader(ds, VariableEntity);
    this.runVars = new RowReader(ds, RunVariableEntity);
  }

  /** With `manager`, read in its transaction; `runId` adds the run's own variables. */
  async read(ws: WorkspaceRef, runId?: string, manager?: EntityManager): Promise<ReachingVariables> {
    const { vars, runVars } = this;
    const setColumns =
      's.name, s.priority, s.project_id, s.global, ' +
      'EXISTS (SELECT 1 FROM varset_workspaces vw WHERE vw.varset_id = s.id AND vw.workspace_id = ?), ' +
      'EXISTS (SELECT 1 FROM varset_projects vp WHERE vp.varset_id = s.id AND vp.project_id = ?)';
    let sql =
      `SELECT 'w' AS part, ${vars.select('v')}, ${NO_SET}, ${runVars.nulls('r')} ` +
      `FROM ${vars.table} v WHERE v.workspace_id = ? ` +
      `UNION ALL SELECT 's', ${vars.select('v')}, ${setColumns}, ${runVars.nulls('r')} ` +
      `FROM varsets s JOIN ${vars.table} v ON v.varset_id = s.id WHERE s.organization_id = ? AND (s.global = 1 ` +
      'OR s.id IN (SELECT vw.varset_id FROM varset_workspaces vw WHERE vw.workspace_id = ?) ' +
      'OR s.id IN (SELECT vp.varset_id FROM varset_projects vp WHERE vp.project_id = ?))';
    const params: unknown[] = [ws.id, ws.id, ws.projectId, ws.organizationId, ws.id, ws.projectId];
    if (runId) {
      sql += ` UNION ALL SELECT 'r', ${vars.nulls('v')}, ${NO_SET}, ${runVars.select('r')} FROM ${runVars.table} r WHERE r.run_id = ?`;
      params.push(runId);
    }
    const rows = manager
      ? await readRowsWith<Row>(manager, sql, params)
      : await readRows<Row>(this.ds, sql, params);
    const out: ReachingVariables = { own: [], fromSets: [], given: [] };
    for (const row of rows) {
      if (row.part === 'w') out.own.push(vars.hydrate(row, 'v'));
      else if (row.part === 'r') out.given.push(runVars.hydrate(row, 'r'));
      else {
        const variable = vars.hydrate(row, 'v');
        out.fromSets.push({ variable, set: setOrigin(variable.varsetId ?? '', row) });
      }
    }
    out.given.sort((a, b) => a.position - b.position);
    return out;
  }
}

function setOrigin(id: string, row: Row): SetOrigin {
  const scopes: SetScope[] = [
    ...(flag(row.s_global) ? (['global'] as const) : []),
    ...(flag(row.s_on_project) ? (['project'] as const) : []),
    ...(flag(row.s_on_workspace) ? (['workspace'] as const) : []),
  ];
  return {
    kind: 'varset',
    id,
    name: row.s_name as string,
    priority: flag(row.s_priority),
    projectOwned: row.s_project_id !== null && row.s_project_id !== undefined,
    scopes,
  };
}

import { createHash } from 'node:crypto';
import { EntityManager, MigrationInterface } from 'typeorm';
import { newId } from '../../src/common/ids';
import { RunJobsService } from '../../src/runs/protocol/run-jobs.service';
import { inTransaction } from '../../src/common/sql/transaction';
import { RunEntity } from '../../src/runs/entities/run.entity';
import { RunsRepository } from '../../src/runs/runs.repository';
import { RunVariableSnapshotsInRuns1795851845739 } from '../../src/persistence/migrations/mysql/1795851845739-RunVariableSnapshotsInRuns';
import { RunVariableSnapshotsInRuns1795851814665 } from '../../src/persistence/migrations/sqlite/1795851814665-RunVariableSnapshotsInRuns';
import { VariableSetEntity } from '../../src/variables/entities/variable-set.entity';
import { VariableEntity } from '../../src/variables/entities/variable.entity';
import {
  VarsetProjectEntity,
  VarsetWorkspaceEntity,
} from '../../src/variables/entities/varset-attachment.entity';
import { RunVariablesService } from '../../src/variables/run-variables.service';
import { WorkspaceEntity } from '../../src/workspaces/entities/workspace.entity';
import { RunSnapshotsService } from '../../src/variables/run-snapshots.service';
import { ServiceApp, startServices } from '../helpers/service-app';
import { ORIGIN, queueRun, seedWorkspace } from '../runs/control-plane-fixtures';

/** What the run's apply will receive: the snapshot kept in the run's row, opened. */
async function kept(app: ServiceApp, runId: string) {
  return app.get(RunSnapshotsService).open(runId, await sealedIn(app, runId));
}

/** The run's sealed snapshot as its row holds it (a column other reads leave out). */
async function sealedIn(app: ServiceApp, runId: string): Promise<string | null> {
  const run = await app.ds
    .getRepository(RunEntity)
    .findOneOrFail({ where: { id: runId }, select: { id: true, variableSnapshot: true } });
  if (run.variableSnapshot === undefined) throw new Error('the snapshot column was not read');
  return run.variableSnapshot;
}

/** A plain terraform variable of a workspace or a set, inserted as a row. */
async function insertVariable(
  app: ServiceApp,
  owner: string | { varsetId: string },
  key: string,
  value: string,
): Promise<string> {
  const id = newId('var');
  const now = new Date();
  await app.ds.getRepository(VariableEntity).insert({
    id,
    workspaceId: typeof owner === 'string' ? owner : null,
    varsetId: typeof owner === 'string' ? null : owner.varsetId,
    key,
    keyDigest: createHash('sha256').update(key).digest('hex'),
    category: 'terraform',
    value,
    sealedValue: null,
    description: '',
    hcl: false,
    sensitive: false,
    versionId: newId('v'),
    createdAt: now,
    updatedAt: now,
  });
  return id;
}

/** A set of the organization (owned by `projectId` if given), attached as `on` says; its id. */
async function insertSet(
  app: ServiceApp,
  organizationId: string,
  name: string,
  options: {
    global?: boolean;
    priority?: boolean;
    projectId?: string;
    on?: { workspaces?: string[]; projects?: string[] };
  },
): Promise<string> {
  const id = newId('varset');
  const now = new Date();
  await app.ds.getRepository(VariableSetEntity).insert({
    id,
    organizationId,
    projectId: options.projectId ?? null,
    name,
    description: '',
    global: options.global ?? false,
    priority: options.priority ?? false,
    createdAt: now,
    updatedAt: now,
  });
  for (const workspaceId of options.on?.workspaces ?? []) {
    await app.ds.getRepository(VarsetWorkspaceEntity).insert({ varsetId: id, workspaceId });
  }
  for (const projectId of options.on?.projects ?? []) {
    await app.ds.getRepository(VarsetProjectEntity).insert({ varsetId: id, projectId });
  }
  return id;
}

const terraform = (key: string, value: string) => ({
  key,
  value,
  category: 'terraform',
  hcl: false,
  sensitive: false,
});

describe('the variables a plan job receives', () => {
  let app: ServiceApp;

  beforeAll(async () => {
    app = await startServices();
  });
  afterAll(() => app.close());

  it('are read in the claim’s own transaction: a change committed just before it begins reaches the plan', async () => {
    const seeded = await seedWorkspace(app);
    const id = await insertVariable(app, seeded.workspaceId, 'region', 'stale');
    const run = await queueRun(app, seeded);
    const original = EntityManager.prototype.transaction as (...args: unknown[]) => Promise<unknown>;
    let changed = false;
    // The first transaction the claim opens is its own: the change commits right before its BEGIN,
    // through the manager that begins it (on SQLite, on the connection's turn the claim holds).
    const spy = jest.spyOn(EntityManager.prototype, 'transaction').mockImplementation(async function (
      this: EntityManager,
      ...args: unknown[]
    ) {
      if (!changed) {
        changed = true;
        await this.getRepository(VariableEntity).update({ id }, { value: 'fresh' });
      }
      return original.apply(this, args);
    });
    try {
      const job = await app.get(RunJobsService).claim(seeded.agent, ORIGIN);
      expect(changed).toBe(true);
      expect(job).toMatchObject({ kind: 'plan', 'run-id': run.id });
      expect(job?.variables).toEqual([
        { key: 'region', value: 'fresh', category: 'terraform', hcl: false, sensitive: false },
      ]);
    } finally {
      spy.mockRestore();
    }
    // What the apply will receive is the same list: the one stored by that transaction.
    expect(await kept(app, run.id)).toEqual([
      { key: 'region', value: 'fresh', category: 'terraform', hcl: false, sensitive: false },
    ]);
  });

  it('come from every set that reaches the workspace, each at its strongest way, and from the run', async () => {
    const seeded = await seedWorkspace(app);
    const elsewhere = await seedWorkspace(app);
    const projectOf = async (id: string) =>
      (await app.ds.getRepository(WorkspaceEntity).findOneByOrFail({ id })).projectId;
    const ws = seeded.workspaceId;
    const project = await projectOf(ws);
    const org = seeded.organizationId;
    const both = { workspaces: [ws], projects: [project] };
    // Attached to the workspace and to its project: at tier 2 (priority, project) it beats a
    // priority set on the workspace only (tier 3) that comes first by name.
    const priority = await insertSet(app, org, 'p-both', { priority: true, on: both });
    await insertVariable(app, { varsetId: priority }, 'by_project', 'p-both');
    await insertVariable(
      app,
      { varsetId: await insertSet(app, org, 'a-ws', { priority: true, on: { workspaces: [ws] } }) },
      'by_project',
      'a-ws',
    );
    // And at tier 11 (workspace) it beats a set on the project only (tier 12) first by name.
    const plain = await insertSet(app, org, 'n-both', { on: both });
    await insertVariable(app, { varsetId: plain }, 'by_workspace', 'n-both');
    await insertVariable(
      app,
      { varsetId: await insertSet(app, org, 'a-prj', { on: { projects: [project] } }) },
      'by_workspace',
      'a-prj',
    );
    // A set of the project, on the project: tier 10, above both of the organization's plain ones.
    const owned = await insertSet(app, org, 'z-owned', { projectId: project, on: { projects: [project] } });
    await insertVariable(app, { varsetId: owned }, 'owned', 'z-owned');
    await insertVariable(app, { varsetId: plain }, 'owned', 'n-both');
    await insertVariable(app, { varsetId: await insertSet(app, org, 'g', { global: true }) }, 'global', 'g');
    // Sets that do not reach it: attached nowhere, and another organization's global and attached ones.
    await insertVariable(app, { varsetId: await insertSet(app, org, 'loose', {}) }, 'loose', 'x');
    const foreign = elsewhere.organizationId;
    await insertVariable(
      app,
      { varsetId: await insertSet(app, foreign, 'og', { global: true }) },
      'foreign',
      'x',
    );
    const theirs = {
      workspaces: [elsewhere.workspaceId],
      projects: [await projectOf(elsewhere.workspaceId)],
    };
    await insertVariable(
      app,
      { varsetId: await insertSet(app, foreign, 'ob', { on: theirs }) },
      'foreign2',
      'x',
    );
    await insertVariable(app, ws, 'region', 'workspace');
    await insertVariable(app, ws, 'size', 'workspace');
    await insertVariable(app, elsewhere.workspaceId, 'other_ws', 'x');

    const run = await queueRun(app, seeded);
    await inTransaction(app.ds, (m) =>
      app.get(RunVariablesService).record(m, run.id, [
        { key: 'region', value: '"run"' },
        { key: 'zone', value: '"first"' },
        { key: 'zone', value: '"second"' },
      ]),
    );
    const job = await app.get(RunJobsService).claim(seeded.agent, ORIGIN);
    expect(job).toMatchObject({ kind: 'plan', 'run-id': run.id, 'workspace-id': ws });
    const expected = [
      terraform('by_project', 'p-both'),
      terraform('by_workspace', 'n-both'),
      terraform('global', 'g'),
      terraform('owned', 'z-owned'),
      { ...terraform('region', '"run"'), hcl: true },
      terraform('size', 'workspace'),
      // Of a key given twice, the first.
      { ...terraform('zone', '"first"'), hcl: true },
    ];
    expect(job?.variables).toEqual(expected);
    expect(await kept(app, run.id)).toEqual(expected);

    // Taken again (a plan claimed anew), the variables are read again, sealed for the same run.
    const fixAgain = () =>
      inTransaction(app.ds, (m) =>
        app.get(RunSnapshotsService).fix(m, { id: ws, projectId: project, organizationId: org }, run.id),
      );
    expect((await fixAgain()).variables).toEqual(expected);
    await app.ds.getRepository(VariableEntity).update({ workspaceId: ws, key: 'size' }, { value: 'later' });
    const again = await fixAgain();
    expect(again.variables).toContainEqual(terraform('size', 'later'));
    expect(app.get(RunSnapshotsService).open(run.id, again.sealed)).toEqual(again.variables);
    // Bound to its run: another run's id does not open it.
    expect(() => app.get(RunSnapshotsService).open('run-0000000000000000', again.sealed)).toThrow();
  });

  it('are kept out of the reads of a run that no job is claimed from, lists included', async () => {
    const seeded = await seedWorkspace(app);
    await insertVariable(app, seeded.workspaceId, 'region', 'eu-west-1');
    const run = await queueRun(app, seeded);
    await app.get(RunJobsService).claim(seeded.agent, ORIGIN);
    expect(await sealedIn(app, run.id)).not.toBeNull();

    const runs = app.get(RunsRepository);
    const read = await runs.findById(run.id);
    const { items } = await runs.list(seeded.workspaceId, undefined, { number: 1, size: 20 });
    const found = await app.ds.getRepository(RunEntity).findOneByOrFail({ id: run.id });
    for (const one of [read, items.find((r) => r.id === run.id), found]) {
      expect(one).toMatchObject({ id: run.id, status: 'planning' });
      expect(one?.variableSnapshot).toBeUndefined();
    }
  });

  it("keeps a live run's snapshot through the migration that moved it into the run's row, both ways", async () => {
    const seeded = await seedWorkspace(app);
    await insertVariable(app, seeded.workspaceId, 'region', 'eu-west-1');
    const run = await queueRun(app, seeded);
    await app.get(RunJobsService).claim(seeded.agent, ORIGIN);
    expect(await sealedIn(app, run.id)).not.toBeNull();

    const migration: MigrationInterface =
      app.ds.options.type === 'better-sqlite3'
        ? new RunVariableSnapshotsInRuns1795851814665()
        : new RunVariableSnapshotsInRuns1795851845739();
    const runner = app.ds.createQueryRunner();
    try {
      // As the migration command runs them (SQLite: without foreign keys, while tables are rebuilt).
      await runner.beforeMigration();
      await migration.down(runner);
      const copied = await runner.query(
        'SELECT sealed_variables FROM run_variable_snapshots WHERE run_id = ?',
        [run.id],
      );
      expect(copied).toHaveLength(1);
      await migration.up(runner);
      await runner.afterMigration();
    } finally {
      await runner.release();
    }
    expect(await kept(app, run.id)).toEqual([terraform('region', 'eu-west-1')]);
    expect(await app.ds.createQueryRunner().hasTable('run_variable_snapshots')).toBe(false);
  });
});

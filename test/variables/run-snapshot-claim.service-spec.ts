import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { newId } from '../../src/common/ids';
import { RunJobsService } from '../../src/runs/protocol/run-jobs.service';
import { VariableEntity } from '../../src/variables/entities/variable.entity';
import { RunSnapshotsService } from '../../src/variables/run-snapshots.service';
import { ServiceApp, startServices } from '../helpers/service-app';
import { ORIGIN, queueRun, seedWorkspace } from '../runs/control-plane-fixtures';

/** A plain terraform variable of the workspace, inserted as a row. */
async function insertVariable(
  app: ServiceApp,
  workspaceId: string,
  key: string,
  value: string,
): Promise<string> {
  const id = newId('var');
  const now = new Date();
  await app.ds.getRepository(VariableEntity).insert({
    id,
    workspaceId,
    varsetId: null,
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
    const ds = app.get(DataSource);
    const original = ds.transaction.bind(ds) as (...args: unknown[]) => Promise<unknown>;
    let changed = false;
    // The first transaction the claim opens is its own: the change commits right before it.
    const spy = jest.spyOn(ds, 'transaction').mockImplementation(async (...args: unknown[]) => {
      if (!changed) {
        changed = true;
        await ds.getRepository(VariableEntity).update({ id }, { value: 'fresh' });
      }
      return original(...args);
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
    expect(await app.get(RunSnapshotsService).of(run.id)).toEqual([
      { key: 'region', value: 'fresh', category: 'terraform', hcl: false, sensitive: false },
    ]);
  });
});

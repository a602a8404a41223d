import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { masterKeyId } from '../../src/secrets/key-ring';
import { SecretsRotation } from '../../src/secrets/secrets-rotation';
import { VariableWrites } from '../../src/variables/variable-writes';
import { VariableEntity } from '../../src/variables/entities/variable.entity';
import { bootstrapAdmin, createOrganization, createWorkspace } from '../helpers/fixtures';
import { createMysqlDatabase, startApp, TestApp, usesMysql } from '../helpers/test-app';
import { RunSnapshotsService } from '../../src/variables/run-snapshots.service';
import { RunEntity } from '../../src/runs/entities/run.entity';
import { WorkspacesService } from '../../src/workspaces/workspaces.service';
import { CONFIG_ARCHIVE, createRun, createVersion, upload } from '../runs/run-fixtures';
import { createVar } from './helpers';

const key = () => randomBytes(32).toString('base64');

describe('sensitive variables and the master key’s rotation', () => {
  let dir: string;
  let databaseUrl: string;
  let drop: (() => Promise<void>) | undefined;
  const [oldKey, newKey] = [key(), key()];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'plinth-var-rotation-'));
    if (usesMysql()) {
      const db = await createMysqlDatabase();
      databaseUrl = db.url;
      drop = db.drop;
    } else {
      databaseUrl = `sqlite:${join(dir, 'plinth.sqlite')}`;
    }
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await drop?.();
  });

  const start = (env: Record<string, string>) =>
    startApp({ DATABASE_URL: databaseUrl, DATA_DIR: dir, ...env });
  const sealed = async (t: TestApp, id: string): Promise<VariableEntity> =>
    await t.app.get(DataSource).getRepository(VariableEntity).findOneByOrFail({ id });

  it('re-wraps their data keys; the value reads the same after', async () => {
    let t = await start({ ENCRYPTION_KEY: oldKey });
    const admin = await bootstrapAdmin(t);
    const org = await createOrganization(admin);
    const ws = await createWorkspace(admin, org);
    const { id } = await createVar(admin, ws, {
      key: 'token',
      value: 'rotate-me',
      category: 'env',
      sensitive: true,
    });
    const before = await sealed(t, id);
    expect(before.sealedValue!.startsWith(`${masterKeyId(Buffer.from(oldKey, 'base64'))}.`)).toBe(true);
    await t.close();

    t = await start({ ENCRYPTION_KEY: newKey, ENCRYPTION_EXTRA_KEYS: oldKey });
    const report = await t.app.get(SecretsRotation).rotate();
    expect(report.holders.find((h) => h.name === 'sensitive variables')).toEqual({
      name: 'sensitive variables',
      rewrapped: 1,
      unreadable: {},
    });
    await t.close();

    t = await start({ ENCRYPTION_KEY: newKey });
    const after = await sealed(t, id);
    expect(after.sealedValue!.startsWith(`${masterKeyId(Buffer.from(newKey, 'base64'))}.`)).toBe(true);
    expect(t.app.get(VariableWrites).plaintext(after)).toBe('rotate-me');
    await t.close();
  });

  it("re-wraps runs' variable snapshots; they open the same after", async () => {
    // A database of its own: the test above has already bootstrapped the shared one.
    const own = usesMysql()
      ? await createMysqlDatabase()
      : { url: `sqlite:${join(dir, 'snapshots.sqlite')}`, drop: undefined };
    const ownDir = mkdtempSync(join(dir, 'snapshots-'));
    const start = (env: Record<string, string>) =>
      startApp({ DATABASE_URL: own.url, DATA_DIR: ownDir, ...env });
    let t = await start({ ENCRYPTION_KEY: oldKey });
    const admin = await bootstrapAdmin(t);
    const org = await createOrganization(admin);
    const ws = await createWorkspace(admin, org);
    await createVar(admin, ws, { key: 'token', value: 'snapshot-secret', category: 'env', sensitive: true });
    const cv = await createVersion(admin, ws, { 'auto-queue-runs': false });
    await upload(t, cv.uploadUrl, CONFIG_ARCHIVE).expect(200);
    const run = await createRun(admin, ws);
    // What a plan job's claim stores in the run's row.
    const snapshots = t.app.get(RunSnapshotsService);
    const workspace = await t.app.get(WorkspacesService).requireById(ws);
    const runs = t.app.get(DataSource).getRepository(RunEntity);
    const { sealed } = await t.app.get(DataSource).transaction((m) => snapshots.fix(m, workspace, run.id));
    await runs.update({ id: run.id }, { variableSnapshot: sealed });
    await t.close();

    t = await start({ ENCRYPTION_KEY: newKey, ENCRYPTION_EXTRA_KEYS: oldKey });
    const report = await t.app.get(SecretsRotation).rotate();
    expect(report.holders.find((h) => h.name === 'run variable snapshots')).toEqual({
      name: 'run variable snapshots',
      rewrapped: 1,
      unreadable: {},
    });
    await t.close();

    t = await start({ ENCRYPTION_KEY: newKey });
    const row = await t.app
      .get(DataSource)
      .getRepository(RunEntity)
      .findOneOrFail({ where: { id: run.id }, select: { id: true, variableSnapshot: true } });
    expect(row.variableSnapshot!.startsWith(`${masterKeyId(Buffer.from(newKey, 'base64'))}.`)).toBe(true);
    expect(t.app.get(RunSnapshotsService).open(run.id, row.variableSnapshot)).toEqual([
      { key: 'token', value: 'snapshot-secret', category: 'env', hcl: false, sensitive: true },
    ]);
    await t.close();
    await own.drop?.();
  });
});

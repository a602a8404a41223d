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
});

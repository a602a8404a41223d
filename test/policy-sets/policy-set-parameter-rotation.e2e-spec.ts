import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { PolicySetParameterEntity } from '../../src/policy-sets/entities/policy-set-parameter.entity';
import { PolicySetParametersService } from '../../src/policy-sets/policy-set-parameters.service';
import { masterKeyId } from '../../src/secrets/key-ring';
import { SecretsRotation } from '../../src/secrets/secrets-rotation';
import { bootstrapAdmin, createOrganization } from '../helpers/fixtures';
import { createMysqlDatabase, startApp, usesMysql } from '../helpers/test-app';
import { createPolicySet } from './policy-fixtures';

const key = () => randomBytes(32).toString('base64');

describe('sensitive policy set parameters and the master key’s rotation', () => {
  let dir: string;
  let databaseUrl: string;
  let drop: (() => Promise<void>) | undefined;
  const [oldKey, newKey] = [key(), key()];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'plinth-param-rotation-'));
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

  it('re-wraps their data keys; the value reaches evaluations the same after', async () => {
    let t = await start({ ENCRYPTION_KEY: oldKey });
    const admin = await bootstrapAdmin(t);
    const org = await createOrganization(admin);
    const set = (await createPolicySet(admin, org)).id;
    const res = await admin.api
      .post(`/api/v2/policy-sets/${set}/parameters`, {
        data: {
          type: 'vars',
          attributes: { key: 'token', value: 'rotate-me', category: 'policy-set', sensitive: true },
        },
      })
      .expect(201);
    const id = res.body.data.id as string;
    const sealed = async () =>
      (await t.app.get(DataSource).getRepository(PolicySetParameterEntity).findOneByOrFail({ id }))
        .sealedValue ?? '';
    expect((await sealed()).startsWith(`${masterKeyId(Buffer.from(oldKey, 'base64'))}.`)).toBe(true);
    await t.close();

    t = await start({ ENCRYPTION_KEY: newKey, ENCRYPTION_EXTRA_KEYS: oldKey });
    const report = await t.app.get(SecretsRotation).rotate();
    expect(report.holders.find((h) => h.name === 'policy set parameters')).toEqual({
      name: 'policy set parameters',
      rewrapped: 1,
      unreadable: {},
    });
    await t.close();

    t = await start({ ENCRYPTION_KEY: newKey });
    expect((await sealed()).startsWith(`${masterKeyId(Buffer.from(newKey, 'base64'))}.`)).toBe(true);
    expect(await t.app.get(PolicySetParametersService).forEvaluation(set)).toEqual([
      { key: 'token', value: 'rotate-me', sensitive: true },
    ]);
    await t.close();
  });
});

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Actor, bootstrapAdmin, createOrganization, createWorkspace } from '../helpers/fixtures';
import { client, createMysqlDatabase, startApp, TestApp, usesMysql } from '../helpers/test-app';
import { masterKeyId } from '../../src/secrets/key-ring';
import { download, pushState, stateFile } from './state-fixtures';

jest.setTimeout(300_000);

const ROOT = resolve(__dirname, '../..');
const key = () => randomBytes(32).toString('base64');

/**
 * A master key rotation as docs/state.md describes it, on one database and data directory: servers
 * on the old key, then on the new key with the old one still accepted, `secrets:rotate` while a
 * server keeps serving, then servers on the new key alone.
 */
describe('rotating the master key', () => {
  let dir: string;
  let databaseUrl: string;
  let dropDatabase: (() => Promise<void>) | undefined;
  const [oldKey, newKey] = [key(), key()];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'plinth-rotation-'));
    if (usesMysql()) {
      const db = await createMysqlDatabase();
      databaseUrl = db.url;
      dropDatabase = db.drop;
    } else {
      databaseUrl = `sqlite:${join(dir, 'plinth.sqlite')}`;
    }
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await dropDatabase?.();
  });

  const start = (env: Record<string, string>) =>
    startApp({ DATABASE_URL: databaseUrl, DATA_DIR: dir, ...env });

  function rotate(
    env: Record<string, string>,
  ): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((done, fail) => {
      const child = spawn('npm', ['run', '--silent', 'admin', '--', 'secrets:rotate'], {
        cwd: ROOT,
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl,
          DATA_DIR: dir,
          SIGNING_SECRET: 'e2e-signing-secret-of-at-least-32-bytes',
          LOG_LEVEL: 'silent',
          TS_NODE_TRANSPILE_ONLY: 'true',
          ENCRYPTION_KEY: '',
          ENCRYPTION_EXTRA_KEYS: '',
          ...env,
        },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', fail);
      child.on('close', (code) => done({ code, stdout, stderr }));
    });
  }

  async function readBack(t: TestApp, actor: Actor, ws: string, state: Buffer): Promise<void> {
    const current = await actor.api.get(`/api/v2/workspaces/${ws}/current-state-version`).expect(200);
    const file = await download(t, actor, current.body.data.attributes['hosted-state-download-url']).expect(
      200,
    );
    expect(file.body).toEqual(state);
    const outputs = await actor.api.get(`/api/v2/state-versions/${current.body.data.id}/outputs`).expect(200);
    expect(outputs.body.data[0].attributes.value).toBe('s3cret');
  }

  it('keeps every state readable through the rotation and re-wraps every data key', async () => {
    const outputs = { password: { value: 's3cret', type: 'string', sensitive: true } };
    const first = stateFile({ serial: 1, outputs });
    const second = stateFile({ serial: 2, outputs });

    const before = await start({ ENCRYPTION_KEY: oldKey });
    const admin = await bootstrapAdmin(before);
    const org = await createOrganization(admin);
    const ws = await createWorkspace(admin, org);
    await pushState(admin, ws, first);
    // A notification token is sealed like state: disabled, so nothing is sent to its public address.
    const nc = await admin.api
      .post(`/api/v2/workspaces/${ws}/notification-configurations`, {
        data: {
          type: 'notification-configurations',
          attributes: {
            name: 'hook',
            'destination-type': 'generic',
            url: 'http://93.184.216.34/hook',
            token: 't',
          },
        },
      })
      .expect(201);
    await before.close();

    const during = await start({ ENCRYPTION_KEY: newKey, ENCRYPTION_EXTRA_KEYS: oldKey });
    const duringAdmin = { ...admin, api: client(during, admin.token) };
    await readBack(during, duringAdmin, ws, first);
    const firstId = (await duringAdmin.api.get(`/api/v2/workspaces/${ws}/current-state-version`)).body.data
      .id;
    await pushState(duringAdmin, ws, second);

    const missingOld = await rotate({ ENCRYPTION_KEY: newKey });
    expect(missingOld.code).toBe(1);
    expect(missingOld.stderr).toContain(
      `failed: data keys wrapped by master keys this process does not hold were left as they are ` +
        `(3 under ${masterKeyId(Buffer.from(oldKey, 'base64'))})`,
    );

    const rotated = await rotate({ ENCRYPTION_KEY: newKey, ENCRYPTION_EXTRA_KEYS: oldKey });
    const newId = masterKeyId(Buffer.from(newKey, 'base64'));
    // One line per holder of wrapped keys (other modules register theirs too), then the verdict.
    const lines = rotated.stdout.trimEnd().split('\n');
    expect(lines.pop()).toBe(
      `every data key is wrapped by master key ${newId}; the other keys may be removed`,
    );
    const rewrapped = new Map(
      lines.map((line) => {
        const match = /^(.+): (\d+) data keys re-wrapped under master key (\S+)$/.exec(line);
        expect(match?.[3]).toBe(newId);
        return [match![1], Number(match![2])] as const;
      }),
    );
    expect(rewrapped.get('state files')).toBe(1);
    expect(rewrapped.get('JSON state files')).toBe(0);
    expect(rewrapped.get('state version outputs')).toBe(1);
    // Every key the old master wrapped (3, as refused above) was re-wrapped, once.
    expect([...rewrapped.values()].reduce((a, b) => a + b, 0)).toBe(3);
    expect(rotated.code).toBe(0);
    // The server that ran through the rotation still serves both versions.
    await readBack(during, duringAdmin, ws, second);
    const old = await download(during, duringAdmin, `/api/v2/state-versions/${firstId}/download`).expect(200);
    expect(old.body).toEqual(first);
    await during.close();

    const after = await start({ ENCRYPTION_KEY: newKey });
    const afterAdmin = { ...admin, api: client(after, admin.token) };
    await readBack(after, afterAdmin, ws, second);
    expect(
      (await download(after, afterAdmin, `/api/v2/state-versions/${firstId}/download`).expect(200)).body,
    ).toEqual(first);
    // An update that keeps the token opens it: it is readable under the new key alone.
    await afterAdmin.api
      .patch(`/api/v2/notification-configurations/${nc.body.data.id}`, {
        data: { type: 'notification-configurations', attributes: { name: 'renamed' } },
      })
      .expect(200);
    await after.close();
  });
});

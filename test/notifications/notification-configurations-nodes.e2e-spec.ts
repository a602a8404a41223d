import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { Actor, bootstrapAdmin, createOrganization, createUser, createWorkspace } from '../helpers/fixtures';
import { client, startApp, TestApp, usesMysql } from '../helpers/test-app';
import { createRun, uploadedVersion } from '../runs/run-fixtures';
import { createConfiguration } from './notification-fixtures';
import { Receiver } from './receiver';

/**
 * A server remembers a workspace's enabled configurations between the moves of its runs. Two servers
 * on one database: a configuration whose creation one of them answered is notified of the very
 * next move the other makes, with no waiting for the memory to expire.
 */
describe('notification configurations seen by several processes', () => {
  let sqliteDir: string | undefined;
  let a: TestApp;
  let b: TestApp;
  let owner: Actor;
  let ownerOnB: Actor;
  let workspaceId: string;
  let cvId: string;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await new Receiver(null).start();
    if (!usesMysql()) sqliteDir = mkdtempSync(join(tmpdir(), 'plinth-nc-nodes-'));
    // A long TTL, and deliveries that stay due: the rows below come from the moves alone.
    const env = {
      CACHE_TTL_MS: '60000',
      NOTIFICATION_ALLOWED_NETWORKS: '127.0.0.1/32',
      NOTIFICATION_POLL_MS: '600000',
    };
    a = await startApp(sqliteDir ? { ...env, DATABASE_URL: `sqlite:${join(sqliteDir, 'nc.sqlite')}` } : env);
    b = await startApp({ ...env, DATABASE_URL: a.config.databaseUrl });
    const admin = await bootstrapAdmin(a);
    owner = await createUser(a, admin);
    const org = await createOrganization(owner);
    ownerOnB = { ...owner, api: client(b, owner.token) };
    workspaceId = await createWorkspace(owner, org);
    cvId = await uploadedVersion(a, owner, workspaceId);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await receiver?.stop();
    if (sqliteDir) rmSync(sqliteDir, { recursive: true, force: true });
  });

  const configuration = (name: string, enabled = true) =>
    createConfiguration(owner, workspaceId, {
      name,
      'destination-type': 'generic',
      url: receiver.url,
      enabled,
      triggers: ['run:created'],
    });

  /** The `run:created` deliveries of each configuration, by its id. */
  const deliveries = async (): Promise<Record<string, number>> => {
    const rows: { configuration_id: string; n: unknown }[] = await a.app
      .get(DataSource)
      .query(
        "SELECT configuration_id, COUNT(*) AS n FROM notification_deliveries WHERE `trigger` = 'run:created' GROUP BY configuration_id",
      );
    return Object.fromEntries(rows.map((r) => [r.configuration_id, Number(r.n)]));
  };

  it('notifies a configuration created through one server of the next move made by the other', async () => {
    const first = await configuration('first');
    // B's first move reads the list and remembers it; its second is answered from memory.
    await createRun(ownerOnB, workspaceId, {}, cvId);
    await createRun(ownerOnB, workspaceId, {}, cvId);
    expect(await deliveries()).toEqual({ [first]: 2 });

    const second = await configuration('second');
    await createRun(ownerOnB, workspaceId, {}, cvId);
    expect(await deliveries()).toEqual({ [first]: 3, [second]: 1 });
  });

  it('stops notifying a configuration disabled through the other server', async () => {
    const before = await deliveries();
    const third = await configuration('third');
    await createRun(ownerOnB, workspaceId, {}, cvId);
    await owner.api
      .patch(`/api/v2/notification-configurations/${third}`, {
        data: { type: 'notification-configurations', attributes: { enabled: false } },
      })
      .expect(200);
    await createRun(ownerOnB, workspaceId, {}, cvId);
    const after = await deliveries();
    expect(after[third]).toBe(1);
    for (const [id, n] of Object.entries(before)) expect(after[id]).toBe(n + 2);
  });
});

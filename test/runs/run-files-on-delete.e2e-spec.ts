import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Actor, bootstrapAdmin, createOrganization, createWorkspace } from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import { RunLogsService } from '../../src/runs/run-logs.service';
import {
  claimJob,
  createRun,
  executor,
  PLANNED_WITH_CHANGES,
  putLink,
  uploadedVersion,
} from './run-fixtures';

jest.setTimeout(120_000);

/** Every file under the blob store's root, as keys (`runs/run-…/plan-….log`). */
async function storedKeys(t: TestApp): Promise<string[]> {
  const root = join(t.config.dataDir, 'blobs');
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && !e.name.endsWith('.partial'))
    .map((e) => join(e.parentPath, e.name).slice(root.length + 1));
}

describe("a deleted workspace's or organization's run files", () => {
  let t: TestApp;
  let admin: Actor;

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
  });
  afterAll(() => t.close());

  /**
   * A workspace with an uploaded configuration and a planned run whose executor sent its log, the
   * log moved to the blob store as it is once its phase has ended.
   */
  async function workspaceWithFiles(org: string) {
    const ws = await createWorkspace(admin, org);
    const cv = await uploadedVersion(t, admin, ws);
    const run = await createRun(admin, ws, {}, cv);
    const ex = await executor(t, admin, org);
    const job = await claimJob(ex);
    expect(job.runId).toBe(run.id);
    await putLink(t, job.links.logs, 'planning…\n').expect(200);
    await ex.finish(job.id, PLANNED_WITH_CHANGES).expect(204);
    await t.app.get(RunLogsService).archiveEnded();
    return { ws, cv, run };
  }

  const keysOf = (keys: string[], ws: string, runId: string) =>
    keys.filter((k) => k.startsWith(`configuration-versions/${ws}/`) || k.startsWith(`runs/${runId}/`));

  it('removes the configuration archives and run logs of a deleted workspace, and only those', async () => {
    const org = await createOrganization(admin);
    const gone = await workspaceWithFiles(org);
    const kept = await workspaceWithFiles(org);
    const before = await storedKeys(t);
    expect(keysOf(before, gone.ws, gone.run.id)).toHaveLength(2);
    expect(keysOf(before, kept.ws, kept.run.id)).toHaveLength(2);

    await admin.api.delete(`/api/v2/workspaces/${gone.ws}`).expect(204);

    const after = await storedKeys(t);
    expect(keysOf(after, gone.ws, gone.run.id)).toEqual([]);
    expect(keysOf(after, kept.ws, kept.run.id)).toEqual(keysOf(before, kept.ws, kept.run.id));
    await admin.api.get(`/api/v2/runs/${kept.run.id}`).expect(200);
  });

  it("removes every workspace's run files with its organization", async () => {
    const org = await createOrganization(admin);
    const other = await workspaceWithFiles(await createOrganization(admin));
    const a = await workspaceWithFiles(org);
    const b = await workspaceWithFiles(org);
    expect(keysOf(await storedKeys(t), a.ws, a.run.id)).toHaveLength(2);

    await admin.api.delete(`/api/v2/organizations/${org}`).expect(204);

    const after = await storedKeys(t);
    expect(keysOf(after, a.ws, a.run.id)).toEqual([]);
    expect(keysOf(after, b.ws, b.run.id)).toEqual([]);
    expect(keysOf(after, other.ws, other.run.id)).toHaveLength(2);
  });
});

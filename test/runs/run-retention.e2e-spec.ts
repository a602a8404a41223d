import request from 'supertest';
import { Actor, bootstrapAdmin, createOrganization, createWorkspace } from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import { RunLogsService } from '../../src/runs/run-logs.service';
import { RunRetentionService } from '../../src/runs/run-retention.service';
import { logKey, phaseFileKey } from '../../src/runs/run-links';
import { BlobStore } from '../../src/storage/blob-store';
import {
  claimJob,
  createRun,
  executor,
  Executor,
  PLANNED_WITH_CHANGES,
  putLink,
  uploadedVersion,
} from './run-fixtures';

jest.setTimeout(120_000);

const DAY_MS = 86_400_000;
const PLAN_JSON = JSON.stringify({ format_version: '1.2', resource_changes: [] });

/** A response body as the raw bytes sent. */
const rawBody = (res: request.Response, done: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

/** An app and helpers: runs planned by an executor that sent a log and the plan's JSON. */
function fixture(env: Record<string, string>) {
  const s = {} as { t: TestApp; admin: Actor; org: string; ex: Executor };

  beforeAll(async () => {
    s.t = await startApp(env);
    s.admin = await bootstrapAdmin(s.t);
    s.org = await createOrganization(s.admin);
    s.ex = await executor(s.t, s.admin, s.org);
  });
  afterAll(() => s.t.close());

  const blobs = () => s.t.app.get(BlobStore);
  return {
    s,
    pruner: () => s.t.app.get(RunRetentionService),
    /** A planned run whose log is in the blob store, as it is a few seconds after its plan ended. */
    async plannedRun(log: string) {
      const ws = await createWorkspace(s.admin, s.org);
      const run = await createRun(s.admin, ws, {}, await uploadedVersion(s.t, s.admin, ws));
      const job = await claimJob(s.ex);
      expect(job.runId).toBe(run.id);
      await putLink(s.t, job.links.logs, log).expect(200);
      await putLink(s.t, job.links['plan-json'], PLAN_JSON).expect(200);
      await s.ex.finish(job.id, PLANNED_WITH_CHANGES).expect(204);
      await s.t.app.get(RunLogsService).archiveEnded();
      return {
        runId: run.id,
        planId: run.planId,
        logKey: logKey(run.id, run.planId),
        jsonKey: phaseFileKey(run.id, run.planId, 'plan-json'),
      };
    },
    stored: async (key: string) => (await blobs().stat(key)) !== null,
    deleteBlob: (key: string) => blobs().delete(key),
    /** The plan's log, read through its `log-read-url` as a client does: status and raw body. */
    async readLog(planId: string) {
      const plan = await s.admin.api.get(`/api/v2/plans/${planId}`).expect(200);
      const url = new URL(plan.body.data.attributes['log-read-url'] as string);
      const res = await request(s.t.origin)
        .get(`${url.pathname}?offset=0&limit=65536`)
        .buffer(true)
        .parse(rawBody);
      return { status: res.status, body: res.body as Buffer };
    },
    async jsonOutput(planId: string) {
      const res = await s.admin.api.get(`/api/v2/plans/${planId}/json-output`);
      return { status: res.status, location: res.headers.location as string | undefined, text: res.text };
    },
  };
}

describe('run log and plan JSON retention', () => {
  const f = fixture({ RUN_LOG_RETENTION_DAYS: '30', PLAN_JSON_RETENTION_DAYS: '30' });

  it('removes the logs and plan JSON of plans that ended more than the retention ago, rows and blobs, and keeps the newer ones', async () => {
    const old = await f.plannedRun('planning the old run\n');
    // Apart by a few milliseconds from the end of either run (timestamps have milliseconds).
    await new Promise((resolve) => setTimeout(resolve, 20));
    const between = new Date();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const recent = await f.plannedRun('planning the recent run\n');
    for (const run of [old, recent]) {
      expect(await f.stored(run.logKey)).toBe(true);
      expect(await f.stored(run.jsonKey)).toBe(true);
      expect((await f.jsonOutput(run.planId)).status).toBe(307);
    }

    // A month after `between`, less a day: nothing is past retention yet.
    expect(await f.pruner().prune(new Date(between.getTime() + 29 * DAY_MS), 0)).toEqual({
      logs: 0,
      planJson: 0,
    });
    expect(await f.stored(old.logKey)).toBe(true);

    expect(await f.pruner().prune(new Date(between.getTime() + 30 * DAY_MS), 0)).toEqual({
      logs: 1,
      planJson: 1,
    });
    expect(await f.stored(old.logKey)).toBe(false);
    expect(await f.stored(old.jsonKey)).toBe(false);
    expect(await f.stored(recent.logKey)).toBe(true);
    expect(await f.stored(recent.jsonKey)).toBe(true);

    // The pruned plan reads as one whose executor sent no log and no JSON.
    expect(await f.readLog(old.planId)).toEqual({ status: 200, body: Buffer.from('\x02\x03') });
    expect(await f.jsonOutput(old.planId)).toEqual({ status: 204, location: undefined, text: '' });
    await f.s.admin.api.get(`/api/v2/plans/${old.planId}/json-output-redacted`).expect(204);
    expect(await f.readLog(recent.planId)).toEqual({
      status: 200,
      body: Buffer.from('\x02planning the recent run\n\x03'),
    });
    expect((await f.jsonOutput(recent.planId)).status).toBe(307);

    // A second pass finds nothing left to remove.
    expect(await f.pruner().prune(new Date(between.getTime() + 30 * DAY_MS), 0)).toEqual({
      logs: 0,
      planJson: 0,
    });
  });

  it('reads a log whose blob went before its row (a pass stopped between the two) as a missing log, and removes the row next pass', async () => {
    const run = await f.plannedRun('cut short\n');
    await f.deleteBlob(run.logKey);
    expect(await f.readLog(run.planId)).toEqual({ status: 200, body: Buffer.from('\x02\x03') });
    // This run's log row and JSON, and the recent run's of the test before; the pass goes on
    // from where the last one stopped and counts nothing twice.
    expect(await f.pruner().prune(new Date(Date.now() + 31 * DAY_MS), 0)).toEqual({ logs: 2, planJson: 2 });
    expect(await f.stored(run.jsonKey)).toBe(false);
    expect(await f.readLog(run.planId)).toEqual({ status: 200, body: Buffer.from('\x02\x03') });
  });
});

describe('run log and plan JSON retention, unset', () => {
  const f = fixture({});

  it('keeps every log and plan JSON, however old', async () => {
    const run = await f.plannedRun('kept for ever\n');
    expect(await f.pruner().prune(new Date(Date.now() + 36_500 * DAY_MS), 0)).toEqual({
      logs: 0,
      planJson: 0,
    });
    expect(await f.stored(run.logKey)).toBe(true);
    expect(await f.stored(run.jsonKey)).toBe(true);
    expect(await f.readLog(run.planId)).toEqual({
      status: 200,
      body: Buffer.from('\x02kept for ever\n\x03'),
    });
    expect((await f.jsonOutput(run.planId)).status).toBe(307);
  });
});

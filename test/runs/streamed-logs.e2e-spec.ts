import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { Executor } from '../../src/executor/executor';
import { DEFAULT_POLICY_COMMANDS } from '../../src/executor/options';
import { ProtocolClient } from '../../src/executor/protocol-client';
import { RunLogsService } from '../../src/runs/run-logs.service';
import { createAgentToken, createPool } from '../agent-pools/helpers';
import { Actor, bootstrapAdmin, createOrganization, createWorkspace } from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import { LogReader } from './log-reader';
import {
  claimJob,
  createRun,
  createVersion,
  executor,
  PLANNED_WITH_CHANGES,
  upload,
  uploadedVersion,
} from './run-fixtures';
import { configuration, installTool } from './stand-in-tool';

jest.setTimeout(120_000);

const STX = '\x02';
const ETX = '\x03';
const ENDED = ['finished', 'errored', 'canceled', 'unreachable'];

/** A response body as the raw bytes sent, whatever its type. */
const rawBody = (res: request.Response, done: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

/** Helpers bound to one app: the log links of a plan, appends and reads of them, the Go reader. */
function logs(t: () => TestApp, admin: () => Actor) {
  const plan = async (planId: string) =>
    (await admin().api.get(`/api/v2/plans/${planId}`).expect(200)).body.data;
  return {
    plan,
    readUrl: async (planId: string): Promise<string> => (await plan(planId)).attributes['log-read-url'],
    /** A PUT to the job's log link, without Authorization; `offset` as given (none when undefined). */
    append(link: string, offset: number | string | undefined, body: Buffer | string) {
      const url = new URL(link);
      if (offset !== undefined) url.searchParams.set('offset', String(offset));
      return request(t().origin)
        .put(url.pathname + url.search)
        .set('Content-Type', 'application/octet-stream')
        .send(Buffer.from(body));
    },
    /** A GET of a log link with this query string, without Authorization; the body as bytes. */
    read(link: string, query = '') {
      return request(t().origin)
        .get(new URL(link).pathname + query)
        .buffer(true)
        .parse(rawBody);
    },
    /** The Go client's reader of this plan's log. */
    reader(planId: string, url: string, options: ConstructorParameters<typeof LogReader>[2] = {}) {
      return new LogReader(url, async () => ENDED.includes((await plan(planId)).attributes.status), options);
    },
  };
}

describe('streamed run logs: appended by offset, read by offset and limit', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;
  const api = logs(
    () => t,
    () => admin,
  );

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    org = await createOrganization(admin);
  });
  afterAll(() => t.close());

  /** A run whose plan job an executor of the organization has claimed. */
  async function claimedPlan() {
    const ws = await createWorkspace(admin, org);
    const run = await createRun(admin, ws, {}, await uploadedVersion(t, admin, ws));
    const ex = await executor(t, admin, org);
    const job = await claimJob(ex);
    expect(job.runId).toBe(run.id);
    return { run, ex, job };
  }

  it('takes chunks at offsets, acknowledges bytes it has, refuses a gap, and serves raw bytes framed by STX and ETX', async () => {
    const { run, ex, job } = await claimedPlan();
    const link = await api.readUrl(run.planId);
    // A log not begun: STX only, and no ETX while the phase runs.
    expect((await api.read(link, '?offset=0&limit=65536').expect(200)).body).toEqual(Buffer.from(STX));

    // "héllo\n" with its é split between two chunks.
    const hello = Buffer.from('héllo\n');
    await api.append(job.links.logs, 0, hello.subarray(0, 2)).expect(200);
    await api.append(job.links.logs, 2, hello.subarray(2)).expect(200);
    // A retry of either chunk changes nothing; a chunk that overlaps the end adds only what is new.
    await api.append(job.links.logs, 0, hello.subarray(0, 2)).expect(200);
    await api.append(job.links.logs, 2, hello.subarray(2)).expect(200);
    await api.append(job.links.logs, 3, Buffer.concat([hello.subarray(3), Buffer.from('wörld')])).expect(200);
    const gap = await api.append(job.links.logs, 20, 'lost').expect(409);
    expect(gap.body).toEqual({
      errors: [
        {
          status: '409',
          title: 'conflict',
          detail: 'This chunk starts at byte 20, but the log has 13 bytes: send it from byte 13',
        },
      ],
    });
    for (const offset of ['-1', 'x', '1.5', '']) {
      const bad = await api.append(job.links.logs, offset, 'x').expect(400);
      expect(bad.body.errors[0]).toMatchObject({
        status: '400',
        detail: 'offset must be a whole number of bytes, given once',
      });
    }
    const twice = new URL(job.links.logs);
    twice.search = '?offset=0&offset=13';
    await api.append(twice.toString(), undefined, 'x').expect(400);
    const log = Buffer.from('héllo\nwörld');
    expect(log.length).toBe(13);

    // Byte ranges of STX + log: the offset counts the STX byte; a range may end inside a character.
    const whole = await api.read(link).expect(200);
    expect(whole.headers['content-type']).toBe('text/plain');
    expect(whole.headers['cache-control']).toBe('no-store');
    expect(whole.body).toEqual(Buffer.concat([Buffer.from(STX), log]));
    expect((await api.read(link, '?limit=3&offset=0').expect(200)).body).toEqual(
      Buffer.concat([Buffer.from(STX), log.subarray(0, 2)]),
    );
    expect((await api.read(link, '?limit=4&offset=3').expect(200)).body).toEqual(log.subarray(2, 6));
    expect((await api.read(link, '?limit=0&offset=3').expect(200)).body).toEqual(Buffer.alloc(0));
    // Past what exists: an empty 200, and still no ETX.
    expect((await api.read(link, '?limit=100&offset=14').expect(200)).body).toEqual(Buffer.alloc(0));
    expect((await api.read(link, '?limit=100&offset=500').expect(200)).body).toEqual(Buffer.alloc(0));
    for (const query of ['?offset=-1', '?limit=ten', '?offset=1&offset=2']) {
      const bad = await api.read(link, query).expect(400);
      expect(JSON.parse((bad.body as Buffer).toString('utf8'))).toEqual({
        errors: [expect.objectContaining({ status: '400' })],
      });
    }
    // A HEAD says how a GET answers; the link needs no Authorization, and a forged one is a 404.
    const head = await request(t.origin).head(new URL(link).pathname).expect(200);
    expect(head.headers['content-type']).toBe('text/plain');
    await request(t.origin)
      .get(`${new URL(link).pathname}x`)
      .expect(404);

    await ex.finish(job.id, PLANNED_WITH_CHANGES).expect(204);
    // Ended: ETX after the last byte, and the job's link takes nothing more.
    expect((await api.read(link, '?limit=100&offset=14').expect(200)).body).toEqual(Buffer.from(ETX));
    expect((await api.read(link, '?limit=100&offset=15').expect(200)).body).toEqual(Buffer.alloc(0));
    await api.append(job.links.logs, 13, 'late').expect(409);
    const framed = Buffer.concat([Buffer.from(STX), log, Buffer.from(ETX)]);
    expect((await api.read(link).expect(200)).body).toEqual(framed);

    // The Go client's reader: the log once, without its markers, and it stops.
    const reader = api.reader(run.planId, link);
    expect(await reader.readAll(65536)).toEqual(log);
    expect(reader).toMatchObject({ startOfText: true, endOfText: true, offset: 15, oversized: 0 });

    // Moved to the blob store (by this call, or by the background sweep if it came first): the
    // same bytes at the same offsets, from any link shown before.
    await t.app.get(RunLogsService).archiveEnded();
    expect(existsSync(join(t.config.dataDir, 'blobs', 'runs', run.id, `${run.planId}.log`))).toBe(true);
    expect(await t.app.get(RunLogsService).archiveEnded()).toBe(0);
    expect((await api.read(link).expect(200)).body).toEqual(framed);
    expect((await api.read(link, '?limit=4&offset=3').expect(200)).body).toEqual(log.subarray(2, 6));
    expect((await api.read(await api.readUrl(run.planId), '?offset=0').expect(200)).body).toEqual(framed);
    const again = api.reader(run.planId, link, { shortRead: (n) => Math.max(1, Math.ceil(n / 2)) });
    expect(await again.readAll(3)).toEqual(log);
  });

  it('gives the log of a phase that never ran as STX and ETX, which the Go reader reads as empty', async () => {
    const ws = await createWorkspace(admin, org);
    const run = await createRun(admin, ws, {}, await uploadedVersion(t, admin, ws));
    await admin.api.post(`/api/v2/runs/${run.id}/actions/cancel`, {}).expect(202);
    const link = await api.readUrl(run.planId);
    expect((await api.plan(run.planId)).attributes.status).toBe('canceled');
    expect((await api.read(link, '?limit=65536&offset=0').expect(200)).body).toEqual(Buffer.from(STX + ETX));
    const reader = api.reader(run.planId, link);
    expect(await reader.readAll(65536)).toEqual(Buffer.alloc(0));
    expect(reader.statusChecks).toBe(1);
  });

  it("reads a running plan of the reference executor with the Go client's loop: each byte once, no ETX before the end, then the end", async () => {
    const toolDir = mkdtempSync(join(tmpdir(), 'plinth-logs-'));
    const marks = join(toolDir, 'chatter');
    const tool = installTool(toolDir);
    const pool = await createPool(admin, org, `pool-logs-${Date.now()}`);
    const { secret } = await createAgentToken(admin, pool);
    const executorLog: string[] = [];
    const stop = new AbortController();
    const agent = new Executor(
      {
        url: t.origin,
        token: secret,
        name: 'logs-host',
        workDir: toolDir,
        maxJobs: 1,
        commands: {
          plan: `${tool} chatter "${marks}" && ${tool} plan`,
          show: `${tool} show`,
          apply: `${tool} apply`,
        },
        policyCommands: DEFAULT_POLICY_COMMANDS,
      },
      new ProtocolClient(t.origin, secret),
      (line) => executorLog.push(line),
    );
    const running = agent.run(stop.signal).catch((err: Error) => executorLog.push(`stopped: ${err.message}`));
    try {
      const ws = await createWorkspace(admin, org);
      const cv = await createVersion(admin, ws, { 'auto-queue-runs': false });
      await upload(t, cv.uploadUrl, configuration([['create']])).expect(200);
      const run = await createRun(admin, ws, {}, cv.id);
      const link = await api.readUrl(run.planId);
      const seen: string[] = [];
      let released = false;
      // Two readers at once: a 64 KiB buffer, and a 7-byte one whose reads of the body come up short.
      const wide = api.reader(run.planId, link, {
        onData: async (data) => {
          seen.push(data.toString('latin1'));
          if (!released && Buffer.from(seen.join(''), 'latin1').includes('chatter 5: ')) {
            // Five lines are out and the tool waits for us: the plan runs and the log has no end yet.
            expect((await api.plan(run.planId)).attributes.status).toBe('running');
            expect(wide.endOfText).toBe(false);
            const sofar = (await api.read(link).expect(200)).body as Buffer;
            expect(sofar[0]).toBe(0x02);
            expect(sofar.includes(0x03)).toBe(false);
            released = true;
            writeFileSync(`${marks}.go`, '');
          }
        },
      });
      let turn = 0;
      const narrow = api.reader(run.planId, link, { shortRead: (n) => 1 + (turn++ % n) });
      const [wideLog, narrowLog] = await Promise.all([wide.readAll(65536), narrow.readAll(7)]);
      if (!released) throw new Error(`${wideLog.toString()}\n${executorLog.join('\n')}`);

      const framed = (await api.read(link).expect(200)).body as Buffer;
      const whole = framed.subarray(1, framed.length - 1);
      expect(framed[0]).toBe(0x02);
      expect(framed[framed.length - 1]).toBe(0x03);
      expect(wideLog).toEqual(whole);
      expect(narrowLog).toEqual(whole);
      const text = whole.toString('utf8');
      expect(text).not.toContain('\ufffd');
      for (let i = 1; i <= 12; i++) expect(text.split(`chatter ${i}: `)).toHaveLength(2);
      expect(text).toContain('chatter 5: café ✓ 😀\nnaïve\nchatter 6: ünïcödé ✓ 𝄞\n');
      expect(text.indexOf('chatter 12: ')).toBeLessThan(text.indexOf('Planning '));
      for (const reader of [wide, narrow]) {
        expect(reader).toMatchObject({ endOfText: true, offset: framed.length, oversized: 0 });
      }
      expect((await api.plan(run.planId)).attributes.status).toBe('finished');
    } finally {
      stop.abort();
      await running;
      rmSync(toolDir, { recursive: true, force: true });
    }
    expect(executorLog.filter((l) => /could not|failed/.test(l))).toEqual([]);
  });
});

describe('streamed run logs past MAX_RUN_LOG_BYTES', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;
  const api = logs(
    () => t,
    () => admin,
  );

  beforeAll(async () => {
    t = await startApp({ MAX_RUN_LOG_BYTES: '1024' });
    admin = await bootstrapAdmin(t);
    org = await createOrganization(admin);
  });
  afterAll(() => t.close());

  async function claimedPlan() {
    const ws = await createWorkspace(admin, org);
    const run = await createRun(admin, ws, {}, await uploadedVersion(t, admin, ws));
    const ex = await executor(t, admin, org);
    return { run, ex, job: await claimJob(ex) };
  }

  it('keeps the tail from a line start, says so in a line at the start, and keeps offsets where they were', async () => {
    const { run, ex, job } = await claimedPlan();
    const before = await api.readUrl(run.planId);
    const lines = Array.from({ length: 200 }, (_, i) => `line ${String(i).padStart(3, '0')} ✓\n`);
    const sent = Buffer.from(lines.join(''));
    for (let at = 0; at < sent.length; at += 333) {
      await api.append(job.links.logs, at, sent.subarray(at, at + 333)).expect(200);
    }
    // A retry of a chunk whose bytes were cut is still acknowledged.
    await api.append(job.links.logs, 0, sent.subarray(0, 333)).expect(200);

    // The link shown now starts where the cut left the log, with a line that says so.
    const after = await api.readUrl(run.planId);
    expect(after).not.toBe(before);
    const text = ((await api.read(after).expect(200)).body as Buffer).toString('utf8');
    expect(text[0]).toBe(STX);
    const match = /^\[Plinth cut the first (\d+) bytes of this log to keep it under its size limit\]\n/.exec(
      text.slice(1),
    );
    expect(match).not.toBeNull();
    const cut = Number(match![1]);
    const tail = text.slice(1 + match![0].length);
    expect(Buffer.byteLength(tail)).toBe(sent.length - cut);
    expect(Buffer.byteLength(tail)).toBeLessThanOrEqual(1024);
    expect(Buffer.byteLength(tail)).toBeGreaterThan(1024 - 20);
    expect(tail).toMatch(/^line \d{3} ✓\n/);
    expect(sent.subarray(cut).toString('utf8')).toBe(tail);

    // The link shown before the cut keeps its offsets: its head is gone (410), its tail is where it was.
    expect((await api.read(before, '?offset=0&limit=1').expect(200)).body).toEqual(Buffer.from(STX));
    const gone = await api.read(before, '?offset=1&limit=10').expect(410);
    expect(JSON.parse((gone.body as Buffer).toString('utf8')).errors[0]).toMatchObject({ status: '410' });
    const end = 1 + sent.length;
    expect((await api.read(before, `?offset=${end - 4}&limit=100`).expect(200)).body).toEqual(
      sent.subarray(-4),
    );

    await ex.finish(job.id, PLANNED_WITH_CHANGES).expect(204);
    expect((await api.read(before, `?offset=${end}&limit=100`).expect(200)).body).toEqual(Buffer.from(ETX));
    const reader = api.reader(run.planId, after);
    expect((await reader.readAll(100)).toString('utf8')).toBe(text.slice(1));

    // Moved to the blob store: the kept bytes only, read the same.
    await t.app.get(RunLogsService).archiveEnded();
    const blob = join(t.config.dataDir, 'blobs', 'runs', run.id, `${run.planId}.log`);
    expect(existsSync(blob)).toBe(true);
    expect((await api.read(after).expect(200)).body.toString('utf8')).toBe(`${text}${ETX}`);
  });

  it('cuts a line longer than the cap between characters, never inside one', async () => {
    const { run, job } = await claimedPlan();
    const sent = Buffer.from('✓'.repeat(1000));
    for (let at = 0; at < sent.length; at += 500) {
      await api.append(job.links.logs, at, sent.subarray(at, at + 500)).expect(200);
    }
    const body = (await api.read(await api.readUrl(run.planId)).expect(200)).body as Buffer;
    const text = body.toString('utf8');
    expect(text).not.toContain('\ufffd');
    const tail = text.slice(text.indexOf(']\n') + 2);
    expect(tail).toBe('✓'.repeat(Buffer.byteLength(tail) / 3));
    expect(Buffer.byteLength(tail)).toBe(1023);
  });
});

/**
 * The `runs-while-reading` scenario: executors run runs from start to finish (a user queues a run,
 * its executor claims the plan, reports it with `next=true` and is handed the auto-applied apply
 * that report queued, reports it, again and again) while users read policy sets and providers.
 * What the reads get from the response cache while the run tables change every few milliseconds is
 * the point.
 */
import { gzipSync } from 'node:zlib';
import { Agent } from 'node:http';
import { Header } from 'tar';
import { agentPost, Api, putBytes, issueAgentToken, jobOf, registerExecutor } from './http';
import { Scenario, SideLoad } from './scenarios';
import { Seeded } from './seed';

export interface RunTrafficOptions {
  origin: string;
  /** Executors, each with a pool and a workspace of its own in an organization of their own. */
  executors: number;
  /**
   * Runs started per second by all executors together, evenly spaced (an executor late on the
   * schedule starts its next at once); unset: each starts its next as soon as its last is applied.
   * Paced executors wait on their claims (`?wait=`), as the reference executor does, so a run is
   * the same four requests each time.
   */
  runRate?: number;
}

interface Executor {
  workspaceId: string;
  configurationVersionId: string;
  secret: string;
  agentId: string;
}

/** A one-file configuration: main.tf. */
export function configurationArchive(): Buffer {
  const body = Buffer.from('resource "null_resource" "bench" {}\n');
  const header = new Header({
    path: 'main.tf',
    type: 'File',
    size: body.length,
    mode: 0o644,
    mtime: new Date(0),
  });
  const block = Buffer.alloc(512);
  header.encode(block, 0);
  const tar = Buffer.concat([
    block,
    body,
    Buffer.alloc((512 - (body.length % 512)) % 512),
    Buffer.alloc(1024),
  ]);
  return gzipSync(tar);
}

/**
 * A workspace run by `poolId`'s executors, with one uploaded configuration version that queues no
 * run by itself (the bench starts its runs).
 */
export async function agentWorkspace(
  api: Api,
  org: string,
  poolId: string,
  attributes: Record<string, unknown>,
  archive: Buffer = configurationArchive(),
): Promise<{ workspaceId: string; configurationVersionId: string }> {
  const ws = await api.post<{ data: { id: string } }>(`/api/v2/organizations/${org}/workspaces`, {
    data: {
      type: 'workspaces',
      attributes: { 'execution-mode': 'agent', ...attributes },
      relationships: { 'agent-pool': { data: { type: 'agent-pools', id: poolId } } },
    },
  });
  const cv = await api.post<{ data: { id: string; attributes: { 'upload-url': string } } }>(
    `/api/v2/workspaces/${ws.data.id}/configuration-versions`,
    { data: { type: 'configuration-versions', attributes: { 'auto-queue-runs': false } } },
  );
  await putBytes(cv.data.attributes['upload-url'], archive);
  return { workspaceId: ws.data.id, configurationVersionId: cv.data.id };
}

async function setUp(
  api: Api,
  agent: Agent,
  opts: RunTrafficOptions,
): Promise<{ org: string; executors: Executor[] }> {
  const url = new URL(opts.origin);
  const org = `bench-runs-${Date.now().toString(36)}`;
  await api.post('/api/v2/organizations', {
    data: { type: 'organizations', attributes: { name: org, email: 'ops@bench-runs.example' } },
  });
  const archive = configurationArchive();
  const executors: Executor[] = [];
  for (let i = 0; i < opts.executors; i++) {
    const pool = await api.post<{ data: { id: string } }>(`/api/v2/organizations/${org}/agent-pools`, {
      data: { type: 'agent-pools', attributes: { name: `pool-${i}` } },
    });
    const secret = await issueAgentToken(api, pool.data.id, `executor ${i}`);
    const agentId = await registerExecutor(agent, url, secret, `runner-${i}`);
    const workspace = await agentWorkspace(
      api,
      org,
      pool.data.id,
      { name: `runs-${i}`, 'auto-apply': true },
      archive,
    );
    executors.push({ ...workspace, secret, agentId });
  }
  return { org, executors };
}

/** Seconds a paced executor's claim may wait for its job. */
const CLAIM_WAIT_SECONDS = 5;

/** Executors running runs end to end, each one run at a time, until stopped. */
function executorLoad(
  origin: string,
  userToken: string,
  agent: Agent,
  executors: Executor[],
  runRate?: number,
): SideLoad {
  const url = new URL(origin);
  let stopped = false;
  let loops: Promise<void>[] = [];
  const counted = { requests: 0, errors: 0, units: 0 };
  const claimPath = runRate
    ? `/api/v2/agent/jobs/claim?wait=${CLAIM_WAIT_SECONDS}`
    : '/api/v2/agent/jobs/claim';
  // The schedule of run starts when paced: run n starts at `started + n / runRate` seconds.
  let started = 0;
  let scheduled = 0;
  const untilDue = async () => {
    if (!runRate) return;
    const due = started + (scheduled++ * 1000) / runRate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  };
  const send = async (
    path: string,
    secret: string,
    agentId: string | undefined,
    body: string,
    ok: number[],
  ) => {
    const res = await agentPost(agent, url, path, secret, agentId, body);
    counted.requests++;
    if (!ok.includes(res.status)) counted.errors++;
    return res;
  };
  const runRuns = async (e: Executor) => {
    while (!stopped) {
      await untilDue();
      if (stopped) return;
      const run = JSON.stringify({
        data: {
          type: 'runs',
          attributes: { 'auto-apply': true },
          relationships: {
            workspace: { data: { type: 'workspaces', id: e.workspaceId } },
            'configuration-version': {
              data: { type: 'configuration-versions', id: e.configurationVersionId },
            },
          },
        },
      });
      const created = await send('/api/v2/runs', userToken, undefined, run, [201]);
      if (created.status !== 201) {
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      // The job a report was answered with (finish?next=true): run next, without a claim. It is
      // this executor's once handed over, so it is run even when the load is being stopped.
      let handed: { id: string; kind: string } | undefined;
      for (let applied = false; !applied && (handed || !stopped);) {
        let job = handed;
        handed = undefined;
        if (!job) {
          const claim = await send(claimPath, e.secret, e.agentId, '{}', [200, 204]);
          if (claim.status !== 200) {
            await new Promise((r) => setTimeout(r, 20));
            continue;
          }
          job = jobOf(claim.text);
        }
        const report = { status: 'finished', 'has-changes': true, 'resource-additions': 1 };
        const done = await send(
          `/api/v2/agent/jobs/${job.id}/finish?next=true`,
          e.secret,
          e.agentId,
          JSON.stringify(report),
          [200, 204],
        );
        if (done.status === 200) handed = jobOf(done.text);
        applied = job.kind === 'apply';
        if (applied) counted.units++;
      }
    }
  };
  return {
    start: () => {
      stopped = false;
      started = performance.now();
      scheduled = 0;
      loops = executors.map(runRuns);
      return Promise.resolve();
    },
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
    },
    counts: () => ({ ...counted }),
  };
}

/** The quiet twin's name (a constant: `name: '…'` reads as a scenario of its own to the docs test). */
const QUIET_READS = 'reads-in-turn';

/** The reads of `runs-while-reading`: a policy set and a provider's versions, in turn. */
function readsInTurn(seed: Seeded): Scenario['requests'] {
  return [
    {
      method: 'GET',
      path: `/api/v2/policy-sets/${seed.versionedSetId}?include=current_version,newest_version`,
    },
    { method: 'GET', path: `/api/registry/v1/providers/${seed.org}/${seed.providerName}/versions` },
  ];
}

/**
 * Reads of a policy set and of a provider's versions (in turn) while `executors` executors run
 * runs in an organization of their own; `quiet`, the same reads with nothing beside them.
 */
export async function runsWhileReading(
  api: Api,
  seed: Seeded,
  userToken: string,
  opts: RunTrafficOptions,
): Promise<{ scenario: Scenario; quiet: Scenario; close: () => void }> {
  const agent = new Agent({ keepAlive: true, maxSockets: opts.executors * 2 });
  const { executors } = await setUp(api, agent, opts);
  const pace = opts.runRate ? `, ${opts.runRate} runs/s in all` : '';
  const scenario: Scenario = {
    name: 'runs-while-reading',
    title: `show policy set and provider versions in turn, while ${opts.executors} executors run runs end to end${pace}`,
    cls: 'mixed',
    requests: readsInTurn(seed),
    load: executorLoad(opts.origin, userToken, agent, executors, opts.runRate),
  };
  const quiet: Scenario = {
    name: QUIET_READS,
    title: 'show policy set and provider versions in turn, nothing beside them',
    cls: 'mixed',
    requests: readsInTurn(seed),
  };
  return { scenario, quiet, close: () => agent.destroy() };
}

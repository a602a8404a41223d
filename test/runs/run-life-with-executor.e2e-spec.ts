import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { Executor } from '../../src/executor/executor';
import { DEFAULT_POLICY_COMMANDS } from '../../src/executor/options';
import { ProtocolClient } from '../../src/executor/protocol-client';
import { createAgentToken, createPool } from '../agent-pools/helpers';
import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  idOf,
  ISO_MILLIS,
  ISO_OFFSET,
  unique,
} from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import { createTrigger } from '../run-triggers/helpers';
import {
  createRun,
  createVersion,
  DEFAULT_RUN_OPTIONS_WIRE,
  OWNER_RUN_PERMISSIONS,
  registeredExecutor,
  upload,
} from './run-fixtures';
import { configuration, installTool } from './stand-in-tool';

jest.setTimeout(120_000);

/** A: two creations, an update and a replacement. B: one creation. */
const A_CHANGES = [['create'], ['create'], ['update'], ['delete', 'create']];
const B_CHANGES = [['create']];

interface Resource {
  id: string;
  type: string;
  attributes: Record<string, unknown> & { status: string; 'log-read-url'?: string };
  relationships: Record<string, { data: { id: string; type: string } | null }>;
}
interface Doc {
  data: Resource;
  included?: Resource[];
}

describe('the life of a run, driven by the reference executor', () => {
  let t: TestApp;
  let admin: Actor;
  let toolDir: string;
  let tool: string;
  const executorLog: string[] = [];
  const stop = new AbortController();
  let running: Promise<void> | undefined;

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    toolDir = mkdtempSync(join(tmpdir(), 'plinth-life-'));
    tool = installTool(toolDir);
  });
  afterAll(async () => {
    stop.abort();
    await running;
    await t.close();
    rmSync(toolDir, { recursive: true, force: true });
  });

  function startExecutor(token: string): void {
    const executor = new Executor(
      {
        url: t.origin,
        token,
        name: 'life-host',
        workDir: toolDir,
        maxJobs: 0,
        commands: { plan: `${tool} plan`, show: `${tool} show`, apply: `${tool} apply` },
        policyCommands: DEFAULT_POLICY_COMMANDS,
      },
      new ProtocolClient(t.origin, token),
      (line) => executorLog.push(line),
    );
    // A failure to register or a crash shows up in the bounded wait's message, not as a stray rejection.
    running = executor.run(stop.signal).catch((err: Error) => {
      executorLog.push(`executor stopped: ${err.message}`);
    });
  }

  const get = async (path: string): Promise<Doc> => (await admin.api.get(path).expect(200)).body as Doc;
  const list = async (path: string): Promise<Resource[]> =>
    (await admin.api.get(path).expect(200)).body.data as Resource[];

  /** Reads the run until it has left the `passing` states; bounded, so a stuck run fails the test. */
  async function settled(runId: string, passing: string[]): Promise<Doc> {
    for (let i = 0; i < 300; i++) {
      const doc = await get(`/api/v2/runs/${runId}?include=plan,apply`);
      if (!passing.includes(doc.data.attributes.status)) return doc;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(
      `run ${runId} never left ${passing.join('/')}; executor said:\n${executorLog.join('\n')}`,
    );
  }

  const included = (doc: Doc, type: string) => doc.included?.find((r) => r.type === type);

  /** A signed link of the response, fetched without Authorization. */
  const follow = (link: string) => {
    const url = new URL(link, t.origin);
    return request(t.origin).get(url.pathname + url.search);
  };

  async function workspace(org: string, pool: string, attributes: Record<string, unknown>): Promise<string> {
    const res = await admin.api
      .post(`/api/v2/organizations/${org}/workspaces`, {
        data: {
          type: 'workspaces',
          attributes: { name: unique('ws'), 'execution-mode': 'agent', ...attributes },
          relationships: { 'agent-pool': { data: { type: 'agent-pools', id: pool } } },
        },
      })
      .expect(201);
    return res.body.data.id;
  }

  async function uploaded(ws: string, changes: string[][]): Promise<string> {
    const cv = await createVersion(admin, ws, { 'auto-queue-runs': false });
    await upload(t, cv.uploadUrl, configuration(changes)).expect(200);
    const shown = await get(`/api/v2/configuration-versions/${cv.id}`);
    expect(shown.data.attributes.status).toBe('uploaded');
    return cv.id;
  }

  const phaseShape = (
    type: 'plans' | 'applies',
    id: string,
    runId: string,
    pool: string,
    agentId: string,
    counts: [number, number, number],
  ) => ({
    id,
    type,
    attributes: {
      status: 'finished',
      'status-timestamps': {
        'queued-at': expect.stringMatching(ISO_OFFSET),
        'started-at': expect.stringMatching(ISO_OFFSET),
        'finished-at': expect.stringMatching(ISO_OFFSET),
      },
      ...(type === 'plans' ? { 'has-changes': true } : {}),
      'resource-additions': counts[0],
      'resource-changes': counts[1],
      'resource-destructions': counts[2],
      'resource-imports': 0,
      'log-read-url': expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/uploads\//),
      'error-message': null,
      'execution-details': { mode: 'agent', 'agent-id': agentId, 'agent-pool-id': pool },
    },
    relationships: { run: { data: { id: runId, type: 'runs' } } },
    links:
      type === 'plans'
        ? { self: `/api/v2/plans/${id}`, 'json-output': `/api/v2/plans/${id}/json-output` }
        : { self: `/api/v2/applies/${id}` },
  });

  const runShape = (
    run: { id: string; planId: string; applyId: string },
    ws: string,
    cv: string,
    status: string,
    timestampKeys: string[],
    extra: { attributes?: Record<string, unknown>; triggeringRun?: string | null } = {},
  ) => ({
    id: run.id,
    type: 'runs',
    attributes: {
      status,
      'status-timestamps': Object.fromEntries(
        timestampKeys.map((k) => [k, expect.stringMatching(ISO_OFFSET)]),
      ),
      message: expect.any(String),
      source: 'tfe-api',
      'trigger-reason': 'manual',
      'is-destroy': false,
      'plan-only': false,
      'auto-apply': false,
      ...DEFAULT_RUN_OPTIONS_WIRE,
      'has-changes': true,
      variables: [],
      'error-message': null,
      'canceled-at': null,
      'created-at': expect.stringMatching(ISO_MILLIS),
      actions: {
        'is-cancelable': false,
        'is-confirmable': status === 'planned',
        'is-discardable': status === 'planned',
        'is-force-cancelable': false,
      },
      permissions: OWNER_RUN_PERMISSIONS,
      'run-trigger-outcomes': [],
      ...extra.attributes,
    },
    relationships: {
      workspace: { data: { id: ws, type: 'workspaces' } },
      'configuration-version': { data: { id: cv, type: 'configuration-versions' } },
      'created-by': { data: { id: admin.userId, type: 'users' } },
      plan: { data: { id: run.planId, type: 'plans' } },
      apply: { data: { id: run.applyId, type: 'applies' } },
      'triggering-run': { data: extra.triggeringRun ? { id: extra.triggeringRun, type: 'runs' } : null },
      'policy-checks': { data: [] },
      'task-stages': { data: [] },
      'cost-estimate': { data: null },
    },
    links: { self: `/api/v2/runs/${run.id}` },
  });

  it('uploads, plans, applies, and plans the run the trigger queued downstream, without applying it', async () => {
    const org = await createOrganization(admin);
    const pool = await createPool(admin, org, unique('pool'));
    const { secret } = await createAgentToken(admin, pool);
    const a = await workspace(org, pool, { 'auto-apply': false });
    const b = await workspace(org, pool, { 'auto-apply': false, 'auto-apply-run-trigger': false });
    const trigger = await createTrigger(admin, b, a);
    const cvA = await uploaded(a, A_CHANGES);
    const cvB = await uploaded(b, B_CHANGES);
    startExecutor(secret);

    const run = await createRun(admin, a, { message: 'life of a run' });
    const planned = await settled(run.id, ['pending', 'plan_queued', 'planning']);
    const agents = await list(`/api/v2/agent-pools/${pool}/agents`);
    expect(agents).toHaveLength(1);
    const agentId = agents[0].id;
    expect(agentId).toMatch(idOf('agent'));
    expect(planned.data).toEqual(
      runShape(run, a, cvA, 'planned', ['plan-queueable-at', 'plan-queued-at', 'planning-at', 'planned-at'], {
        attributes: { message: 'life of a run' },
      }),
    );
    const plan = included(planned, 'plans')!;
    expect(plan).toEqual(phaseShape('plans', run.planId, run.id, pool, agentId, [3, 1, 1]));
    const pendingApply = included(planned, 'applies')!.attributes;
    expect(pendingApply.status).toBe('pending');
    // A log not begun: its start marker and nothing else, until the apply ends.
    expect((await follow(pendingApply['log-read-url']!).expect(200)).text).toBe('\x02');
    const planLog = await follow(plan.attributes['log-read-url']!).expect(200);
    const name = (await get(`/api/v2/workspaces/${a}`)).data.attributes.name as string;
    expect(planLog.text.startsWith('\x02$ plan: ')).toBe(true);
    expect(planLog.text).toContain(`Planning ${name} for run ${run.id}\n`);
    expect(planLog.text.endsWith(' show\n\x03')).toBe(true);
    const jsonOutput = await admin.api.get(`/api/v2/plans/${run.planId}/json-output`).expect(307);
    const planJson = await follow(jsonOutput.headers.location).expect(200);
    expect(JSON.parse(planJson.text)).toEqual({
      format_version: '1.2',
      resource_changes: A_CHANGES.map((actions, i) => ({
        address: `null_resource.r${i}`,
        change: { actions },
      })),
    });
    // Nothing moves downstream before the source run is applied.
    expect(await list(`/api/v2/workspaces/${b}/runs`)).toEqual([]);

    await admin.api.post(`/api/v2/runs/${run.id}/actions/apply`, { comment: 'ship it' }).expect(202);
    const applied = await settled(run.id, ['planned', 'apply_queued', 'applying']);
    const [triggered] = await list(`/api/v2/workspaces/${b}/runs`);
    expect(applied.data).toEqual(
      runShape(
        run,
        a,
        cvA,
        'applied',
        [
          'plan-queueable-at',
          'plan-queued-at',
          'planning-at',
          'planned-at',
          'apply-queued-at',
          'applying-at',
          'applied-at',
        ],
        {
          attributes: {
            message: 'life of a run',
            'run-trigger-outcomes': [
              { 'run-trigger-id': trigger, 'workspace-id': b, 'run-id': triggered.id, reason: null },
            ],
          },
        },
      ),
    );
    // The plan is as it was; its log link is signed afresh on each read.
    expect(included(applied, 'plans')).toEqual(
      phaseShape('plans', run.planId, run.id, pool, agentId, [3, 1, 1]),
    );
    const apply = included(applied, 'applies')!;
    expect(apply).toEqual(phaseShape('applies', run.applyId, run.id, pool, agentId, [3, 1, 1]));
    const applyLog = await follow(apply.attributes['log-read-url']!).expect(200);
    expect(applyLog.text).toContain('Apply complete! Resources: 3 added, 1 changed, 1 destroyed.');
    // The tool's banner first, three lines the CLI skips (the executor knows no tool version here).
    expect(applyLog.text.split('\n').slice(0, 4)).toEqual([
      '\x02Terraform (version not configured)',
      expect.stringMatching(/^on [a-z0-9]+_[a-z0-9]+$/),
      'Initializing plugins and modules...',
      expect.stringMatching(/^\$ apply: /),
    ]);

    expect(await list(`/api/v2/workspaces/${b}/runs`)).toHaveLength(1);
    const bRun = {
      id: triggered.id,
      planId: triggered.relationships.plan.data!.id,
      applyId: triggered.relationships.apply.data!.id,
    };
    const bPlanned = await settled(bRun.id, ['pending', 'plan_queued', 'planning']);
    expect(bPlanned.data).toEqual(
      runShape(
        bRun,
        b,
        cvB,
        'planned',
        ['plan-queueable-at', 'plan-queued-at', 'planning-at', 'planned-at'],
        {
          attributes: { source: 'tfe-run-trigger', 'trigger-reason': 'run-trigger' },
          triggeringRun: run.id,
        },
      ),
    );
    expect(bPlanned.data.attributes.message).toContain(run.id);
    expect(included(bPlanned, 'plans')).toEqual(
      phaseShape('plans', bRun.planId, bRun.id, pool, agentId, [1, 0, 0]),
    );
    // Waiting for confirmation: its apply was never queued, so the pool has no job to hand out.
    expect(included(bPlanned, 'applies')!.attributes).toMatchObject({
      status: 'pending',
      'status-timestamps': {},
    });
    expect(await list(`/api/v2/workspaces/${b}/runs`)).toHaveLength(1);
    const idle = await registeredExecutor(t, secret);
    await idle.claim().expect(204);
  });
});

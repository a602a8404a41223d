import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Executor } from '../../src/executor/executor';
import { ProtocolClient } from '../../src/executor/protocol-client';
import { createAgentToken, createPool } from '../agent-pools/helpers';
import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createProject,
  grantWorkspace,
  idOf,
  ISO_MILLIS,
  ISO_OFFSET,
  memberWith,
  unique,
} from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import { createRun, uploadedVersion } from '../runs/run-fixtures';
import { checkOf, policyOutcome, policyWithCode, setOf } from './check-fixtures';

jest.setTimeout(120_000);

/** A stand-in tool: one resource to create, whatever the configuration says. */
const TOOL = {
  plan: 'printf saved > "$PLINTH_PLAN_FILE"',
  show: 'printf \'{"resource_changes":[{"change":{"actions":["create"]}}]}\' > "$PLINTH_PLAN_JSON"',
  apply: 'echo "Apply complete! Resources: 1 added, 0 changed, 0 destroyed."',
};

/**
 * Stand-in engines, one per kind, as an operator would configure real ones: they read the policy
 * file and the plan JSON the job handed over, fail a policy whose code says `deny` (exit 1), and
 * print what they saw.
 */
const ENGINE = (kind: string) =>
  `echo "${kind} ${'$'}PLINTH_POLICY_NAME (${'$'}PLINTH_ENFORCEMENT_LEVEL) on ${'$'}(cat "${'$'}PLINTH_PLAN_JSON")"; ` +
  `! grep -q deny "${'$'}PLINTH_POLICY_FILE"`;
const PLAN_JSON = '{"resource_changes":[{"change":{"actions":["create"]}}]}';
const said = (kind: string, name: string, level: string) => `${kind} ${name} (${level}) on ${PLAN_JSON}\n`;

describe('policy checks driven by the reference executor', () => {
  let t: TestApp;
  let admin: Actor;
  let workDir: string;
  const executorLog: string[] = [];
  const stop = new AbortController();
  const running: Promise<void>[] = [];

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    workDir = mkdtempSync(join(tmpdir(), 'plinth-checks-'));
    writeFileSync(join(workDir, '.keep'), '');
  });
  afterAll(async () => {
    stop.abort();
    await Promise.all(running);
    await t.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  /** An organization with an organization-scoped pool served by a reference executor. */
  async function organization(): Promise<string> {
    const org = await createOrganization(admin);
    const pool = await createPool(admin, org, unique('pool'));
    const { secret } = await createAgentToken(admin, pool);
    const executor = new Executor(
      {
        url: t.origin,
        token: secret,
        name: unique('host'),
        workDir,
        maxJobs: 0,
        commands: TOOL,
        policyCommands: { framework_a: ENGINE('A'), framework_b: ENGINE('B') },
      },
      new ProtocolClient(t.origin, secret),
      (line) => executorLog.push(line),
    );
    running.push(
      executor.run(stop.signal).catch((err: Error) => {
        executorLog.push(`executor stopped: ${err.message}`);
      }),
    );
    return org;
  }

  async function workspace(org: string, attributes: Record<string, unknown> = {}, project?: string) {
    const res = await admin.api
      .post(`/api/v2/organizations/${org}/workspaces`, {
        data: {
          type: 'workspaces',
          attributes: { name: unique('ws'), ...attributes },
          ...(project ? { relationships: { project: { data: { type: 'projects', id: project } } } } : {}),
        },
      })
      .expect(201);
    const ws = res.body.data.id as string;
    await uploadedVersion(t, admin, ws);
    return ws;
  }

  /** Reads the run until it leaves `passing`; bounded, so a stuck run fails with the executor's log. */
  async function settled(runId: string, passing: string[]): Promise<Record<string, unknown>> {
    for (let i = 0; i < 300; i++) {
      const res = await admin.api.get(`/api/v2/runs/${runId}`).expect(200);
      if (!passing.includes(res.body.data.attributes.status)) return res.body.data.attributes;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(
      `run ${runId} never left ${passing.join('/')}; executor said:\n${executorLog.join('\n')}`,
    );
  }

  const CHECKING = ['pending', 'plan_queued', 'planning', 'policy_checking'];

  it('checks the global and the project set, not the set that excludes the workspace; an advisory failure lets it apply', async () => {
    const org = await organization();
    const project = await createProject(admin, org);
    const ws = await workspace(org, {}, project);
    const tags = await policyWithCode(admin, org, { name: 'tags', level: 'hard-mandatory', code: 'allow' });
    const cost = await policyWithCode(admin, org, { name: 'cost', level: 'advisory', code: 'deny big' });
    const regions = await policyWithCode(admin, org, {
      name: 'regions',
      kind: 'framework_b',
      level: 'mandatory',
      code: 'package regions',
    });
    const never = await policyWithCode(admin, org, { name: 'never', level: 'hard-mandatory', code: 'deny' });
    const globalSet = await setOf(admin, org, 'a-global', [tags, cost], { global: true });
    const projectSet = await setOf(admin, org, 'b-project', [regions], {
      kind: 'framework_b',
      projects: [project],
    });
    await setOf(admin, org, 'c-excluded', [never], { workspaces: [ws], exclusions: [ws] });

    const run = await createRun(admin, ws);
    const attributes = await settled(run.id, CHECKING);
    expect(attributes).toMatchObject({
      status: 'policy_checked',
      actions: { 'is-confirmable': true, 'is-discardable': true, 'is-cancelable': false },
      permissions: expect.objectContaining({ 'can-override-policy-check': true }),
    });
    expect(Object.keys(attributes['status-timestamps'] as object)).toEqual([
      'plan-queueable-at',
      'plan-queued-at',
      'planning-at',
      'policy-checking-at',
      'policy-checked-at',
    ]);

    const listed = await checkOf(admin, run.id);
    const shown = await admin.api.get(`/api/v2/policy-checks/${listed.id}`).expect(200);
    expect(shown.body).toEqual({ data: listed });
    const [a, b] = listed.attributes.result['policy-sets'] as { 'policy-evaluation-id': string }[];
    expect(listed).toEqual({
      id: expect.stringMatching(idOf('polchk')),
      type: 'policy-checks',
      attributes: {
        status: 'passed',
        scope: 'organization',
        'status-timestamps': {
          'queued-at': expect.stringMatching(ISO_OFFSET),
          'passed-at': expect.stringMatching(ISO_OFFSET),
        },
        actions: { 'is-overridable': false },
        permissions: { 'can-override': true },
        result: {
          result: true,
          passed: 2,
          'total-failed': 1,
          'hard-failed': 0,
          'soft-failed': 0,
          'advisory-failed': 1,
          'duration-ms': expect.any(Number),
          duration: expect.any(Number),
          'policy-sets': [
            {
              'policy-evaluation-id': expect.stringMatching(idOf('poleval')),
              'policy-set-id': globalSet,
              'policy-set-name': 'a-global',
              'policy-kind': 'framework_a',
              'policy-tool-version': 'latest',
              'policy-set-version-id': null,
              overridable: false,
              status: 'passed',
              error: null,
              policies: [
                policyOutcome('cost', 'advisory', 'failed', said('A', 'cost', 'advisory')),
                policyOutcome('tags', 'hard-mandatory', 'passed', said('A', 'tags', 'hard-mandatory')),
              ],
            },
            {
              'policy-evaluation-id': expect.stringMatching(idOf('poleval')),
              'policy-set-id': projectSet,
              'policy-set-name': 'b-project',
              'policy-kind': 'framework_b',
              'policy-tool-version': 'latest',
              'policy-set-version-id': null,
              overridable: false,
              status: 'passed',
              error: null,
              policies: [
                policyOutcome('regions', 'mandatory', 'passed', said('B', 'regions', 'mandatory'), {
                  query: 'data.terraform.deny',
                }),
              ],
            },
          ],
        },
        'error-message': null,
        'overridden-at': null,
        'created-at': expect.stringMatching(ISO_MILLIS),
      },
      relationships: {
        run: { data: { id: run.id, type: 'runs' } },
        'overridden-by': { data: null },
      },
      links: {
        self: `/api/v2/policy-checks/${listed.id}`,
        output: `/api/v2/policy-checks/${listed.id}/output`,
      },
    });

    // go-tfe's include options: the run, and the run's workspace.
    const withRun = await admin.api
      .get(`/api/v2/policy-checks/${listed.id}?include=run.workspace`)
      .expect(200);
    expect(withRun.body.included.map((r: { type: string; id: string }) => [r.type, r.id])).toEqual([
      ['runs', run.id],
      ['workspaces', ws],
    ]);
    const listedWithRun = await admin.api.get(`/api/v2/runs/${run.id}/policy-checks?include=run`).expect(200);
    expect(listedWithRun.body.included).toEqual([withRun.body.included[0]]);
    const unknown = await admin.api.get(`/api/v2/policy-checks/${listed.id}?include=plan`).expect(400);
    expect(unknown.body.errors[0].source).toEqual({ parameter: 'include' });

    const output = await admin.api.get(`/api/v2/policy-checks/${listed.id}/output`).expect(200);
    expect(output.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(output.text).toContain('-- cost (advisory): failed\nA cost (advisory) on');

    const evaluations = await admin.api
      .get(`/api/v2/policy-checks/${listed.id}/policy-evaluations`)
      .expect(200);
    expect(evaluations.body.data.map((e: { id: string }) => e.id)).toEqual([
      a['policy-evaluation-id'],
      b['policy-evaluation-id'],
    ]);
    expect(evaluations.body.meta.pagination).toMatchObject({ 'total-count': 2, 'current-page': 1 });
    const evaluation = await admin.api
      .get(`/api/v2/policy-evaluations/${b['policy-evaluation-id']}`)
      .expect(200);
    expect(evaluation.body.data).toEqual({
      id: b['policy-evaluation-id'],
      type: 'policy-evaluations',
      attributes: {
        status: 'passed',
        'policy-kind': 'framework_b',
        'policy-tool-version': 'latest',
        'result-count': { 'advisory-failed': 0, errored: 0, 'mandatory-failed': 0, passed: 1 },
        'status-timestamps': {
          'queued-at': expect.stringMatching(ISO_OFFSET),
          'running-at': expect.stringMatching(ISO_OFFSET),
          'passed-at': expect.stringMatching(ISO_OFFSET),
        },
        'created-at': expect.stringMatching(ISO_MILLIS),
        'updated-at': expect.stringMatching(ISO_MILLIS),
      },
      relationships: {
        'policy-check': { data: { id: listed.id, type: 'policy-checks' } },
        'policy-set-outcomes': {
          links: { related: `/api/v2/policy-evaluations/${b['policy-evaluation-id']}/policy-set-outcomes` },
        },
      },
      links: { self: `/api/v2/policy-evaluations/${b['policy-evaluation-id']}` },
    });
    const outcomes = await admin.api
      .get(`/api/v2/policy-evaluations/${a['policy-evaluation-id']}/policy-set-outcomes`)
      .expect(200);
    const outcome = outcomes.body.data[0];
    expect(outcome).toEqual({
      id: expect.stringMatching(idOf('psout')),
      type: 'policy-set-outcomes',
      attributes: {
        outcomes: [
          policyOutcome('cost', 'advisory', 'failed', said('A', 'cost', 'advisory')),
          policyOutcome('tags', 'hard-mandatory', 'passed', said('A', 'tags', 'hard-mandatory')),
        ],
        error: null,
        overridable: false,
        'policy-set-name': 'a-global',
        'policy-set-description': null,
        'result-count': { 'advisory-failed': 1, errored: 0, 'mandatory-failed': 0, passed: 1 },
        'policy-tool-version': 'latest',
      },
      relationships: {
        'policy-evaluation': { data: { id: a['policy-evaluation-id'], type: 'policy-evaluations' } },
      },
      links: { self: `/api/v2/policy-set-outcomes/${outcome.id}` },
    });
    expect((await admin.api.get(`/api/v2/policy-set-outcomes/${outcome.id}`).expect(200)).body).toEqual({
      data: outcome,
    });

    await admin.api.post(`/api/v2/runs/${run.id}/actions/apply`).expect(202);
    expect((await settled(run.id, ['policy_checked', 'apply_queued', 'applying'])).status).toBe('applied');
  });

  it('applies a passing run of an auto-apply workspace on its own', async () => {
    const org = await organization();
    const ws = await workspace(org, { 'auto-apply': true });
    const ok = await policyWithCode(admin, org, { name: 'ok', level: 'hard-mandatory', code: 'allow' });
    await setOf(admin, org, 'only', [ok], { global: true });
    const run = await createRun(admin, ws);
    const attributes = await settled(run.id, [...CHECKING, 'policy_checked', 'apply_queued', 'applying']);
    expect(attributes.status).toBe('applied');
    expect(Object.keys(attributes['status-timestamps'] as object)).toEqual(
      expect.arrayContaining(['policy-checking-at', 'policy-checked-at', 'apply-queued-at', 'applied-at']),
    );
    expect((await checkOf(admin, run.id)).attributes.status).toBe('passed');
  });

  it('holds a soft failure for an override: refused to a reader (404), taken by a member with the permission', async () => {
    const org = await organization();
    const ws = await workspace(org);
    const soft = await policyWithCode(admin, org, { name: 'budget', level: 'soft-mandatory', code: 'deny' });
    await setOf(admin, org, 'guard', [soft], { global: true });
    const reader = await memberWith(t, admin, admin, org);
    await grantWorkspace(admin, reader.teamId, ws, 'read');
    const overrider = await memberWith(t, admin, admin, org, ['manage-policy-overrides']);
    await grantWorkspace(admin, overrider.teamId, ws, 'read');
    const outsider = await memberWith(t, admin, admin, org, ['manage-policy-overrides']);

    const run = await createRun(admin, ws);
    expect((await settled(run.id, CHECKING)).status).toBe('policy_override');
    const check = await checkOf(admin, run.id);
    expect(check.attributes).toMatchObject({
      status: 'soft_failed',
      'status-timestamps': {
        'queued-at': expect.stringMatching(ISO_OFFSET),
        'soft-failed-at': expect.any(String),
      },
      actions: { 'is-overridable': true },
      result: { result: false, passed: 0, 'total-failed': 1, 'soft-failed': 1, 'hard-failed': 0 },
    });

    const asReader = await reader.api.get(`/api/v2/policy-checks/${check.id}`).expect(200);
    expect(asReader.body.data.attributes.permissions).toEqual({ 'can-override': false });
    const readerRun = await reader.api.get(`/api/v2/runs/${run.id}`).expect(200);
    expect(readerRun.body.data.attributes.permissions['can-override-policy-check']).toBe(false);
    // go-tfe's Run declares `PolicyChecks []*PolicyCheck jsonapi:"relation,policy-checks"`.
    expect(readerRun.body.data.relationships['policy-checks']).toEqual({
      data: [{ id: check.id, type: 'policy-checks' }],
    });
    const refused = await reader.api.post(`/api/v2/policy-checks/${check.id}/actions/override`).expect(404);
    expect(refused.body).toEqual({ errors: [{ status: '404', title: 'not found' }] });
    await outsider.api.get(`/api/v2/policy-checks/${check.id}`).expect(404);
    await outsider.api.post(`/api/v2/policy-checks/${check.id}/actions/override`).expect(404);
    expect((await settled(run.id, [])).status).toBe('policy_override');

    const overriderRun = await overrider.api.get(`/api/v2/runs/${run.id}`).expect(200);
    expect(overriderRun.body.data.attributes.permissions['can-override-policy-check']).toBe(true);
    const overridden = await overrider.api
      .post(`/api/v2/policy-checks/${check.id}/actions/override`)
      .expect(200);
    expect(overridden.body.data).toMatchObject({
      id: check.id,
      type: 'policy-checks',
      attributes: {
        status: 'overridden',
        'status-timestamps': {
          'queued-at': expect.stringMatching(ISO_OFFSET),
          'soft-failed-at': expect.stringMatching(ISO_OFFSET),
          'overridden-at': expect.stringMatching(ISO_OFFSET),
        },
        actions: { 'is-overridable': false },
        permissions: { 'can-override': true },
        'overridden-at': expect.stringMatching(ISO_MILLIS),
      },
      relationships: {
        run: { data: { id: run.id, type: 'runs' } },
        'overridden-by': { data: { id: overrider.userId, type: 'users' } },
      },
    });
    expect(overridden.body.data.attributes.result['policy-sets'][0].status).toBe('overridden');
    await overrider.api.post(`/api/v2/policy-checks/${check.id}/actions/override`).expect(409);
    expect((await settled(run.id, [])).status).toBe('policy_checked');
    await admin.api.post(`/api/v2/runs/${run.id}/actions/apply`).expect(202);
    expect((await settled(run.id, ['policy_checked', 'apply_queued', 'applying'])).status).toBe('applied');
  });

  it('errors the run on a hard-mandatory failure; an overridable set makes the same failure wait', async () => {
    const org = await organization();
    const ws = await workspace(org);
    const strict = await policyWithCode(admin, org, {
      name: 'strict',
      kind: 'framework_b',
      level: 'mandatory',
      code: 'deny',
    });
    const set = await setOf(admin, org, 'strict-set', [strict], { kind: 'framework_b', global: true });
    const run = await createRun(admin, ws);
    expect(await settled(run.id, CHECKING)).toMatchObject({
      status: 'errored',
      'error-message': 'A policy that cannot be overridden failed its check',
    });
    expect((await checkOf(admin, run.id)).attributes).toMatchObject({
      status: 'hard_failed',
      actions: { 'is-overridable': false },
      result: { result: false, 'hard-failed': 1, 'soft-failed': 0, 'total-failed': 1 },
    });

    await admin.api
      .patch(`/api/v2/policy-sets/${set}`, {
        data: { type: 'policy-sets', attributes: { overridable: true } },
      })
      .expect(200);
    const second = await createRun(admin, ws);
    expect((await settled(second.id, CHECKING)).status).toBe('policy_override');
    expect((await checkOf(admin, second.id)).attributes.result).toMatchObject({
      'soft-failed': 1,
      'hard-failed': 0,
    });
  });
});

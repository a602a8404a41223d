import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Actor, bootstrapAdmin } from '../helpers/fixtures';
import { tarGz } from '../helpers/tarball';
import { startApp, TestApp } from '../helpers/test-app';
import { createPolicySet, makeFree } from '../policy-sets/policy-fixtures';
import { putLink, runStatus } from '../runs/run-fixtures';
import { checkOf, policyOutcome, policyWithCode, setOf } from './check-fixtures';
import { protocolHelpers } from './protocol-helpers';

jest.setTimeout(120_000);

/** Versioned sets, editions, and what deleting a workspace does to its checks. */
describe('policy checks of versioned sets, free organizations and deleted workspaces', () => {
  let t: TestApp;
  let admin: Actor;

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
  });
  afterAll(() => t.close());

  const { setting, planned, claimEvaluation, fetchLink } = protocolHelpers(() => ({ t, admin }));

  it("evaluates a versioned set's ready version as a bundle, and skips a set whose version is not ready", async () => {
    const { org, ws, ex } = await setting();
    const bundle = tarGz([{ path: 'policies.hcl', body: 'policy "size" {}\n' }]);
    const versioned = await createPolicySet(admin, org, {
      name: 'v-ready',
      kind: 'framework_b',
      global: true,
    });
    const version = await admin.api.post(`/api/v2/policy-sets/${versioned.id}/versions`).expect(201);
    await putLink(t, version.body.data.links.upload, bundle).expect(200);
    const waiting = await createPolicySet(admin, org, {
      name: 'w-waiting',
      kind: 'framework_b',
      global: true,
    });
    await admin.api.post(`/api/v2/policy-sets/${waiting.id}/versions`).expect(201);

    const run = await planned(ex, ws);
    const sets = (await checkOf(admin, run.id)).attributes.result['policy-sets'];
    expect(sets.map((s) => [s['policy-set-name'], s['policy-set-version-id'], s.status, s.error])).toEqual([
      ['v-ready', version.body.data.id, 'queued', null],
      ['w-waiting', null, 'unreachable', 'the policy set has no ready version yet'],
    ]);
    const job = await claimEvaluation(ex);
    expect(job['policy-evaluation']).toMatchObject({ 'policy-set-name': 'v-ready', policies: [] });
    const fetched = await fetchLink(job['policy-evaluation'].bundle!)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(Buffer.compare(fetched.body as Buffer, bundle)).toBe(0);

    const levelless = await ex
      .finish(job.id, { status: 'finished', results: [{ policy: 'size', status: 'failed' }] })
      .expect(422);
    expect(levelless.body.errors[0]).toMatchObject({
      detail: 'enforcement-level must be one of advisory, mandatory for framework_b',
      source: { pointer: '/results/0/enforcement-level' },
    });
    await ex
      .finish(job.id, {
        status: 'finished',
        results: [
          { policy: 'size', status: 'failed', 'enforcement-level': 'advisory', output: 'big' },
          { policy: 'cost', status: 'passed', 'enforcement-level': 'mandatory' },
        ],
      })
      .expect(204);
    expect(await runStatus(admin, run.id)).toBe('policy_checked');
    const check = await checkOf(admin, run.id);
    expect(check.attributes.result['policy-sets'][0].policies).toEqual([
      policyOutcome('size', 'advisory', 'failed', 'big'),
      policyOutcome('cost', 'mandatory', 'passed', null),
    ]);
  });

  it("checks runs against the free edition's one policy set", async () => {
    const { org, ws, ex } = await setting();
    await makeFree(admin, org);
    const p = await policyWithCode(admin, org, { name: 'p', level: 'hard-mandatory', code: 'x' });
    await setOf(admin, org, 'the-one', [p], { global: true });
    const run = await planned(ex, ws);
    const job = await claimEvaluation(ex);
    await ex.finish(job.id, { status: 'finished', results: [{ policy: 'p', status: 'failed' }] }).expect(204);
    expect(await runStatus(admin, run.id)).toBe('errored');
    expect((await checkOf(admin, run.id)).attributes.status).toBe('hard_failed');
  });

  it("removes a check's code copies with its workspace, and the check with its run", async () => {
    const { org, ws, ex } = await setting();
    const p = await policyWithCode(admin, org, { name: 'p', level: 'advisory', code: 'x' });
    await setOf(admin, org, 'copied', [p], { global: true });
    const run = await planned(ex, ws);
    const check = await checkOf(admin, run.id);
    const copies = async () =>
      (
        await readdir(join(t.config.dataDir, 'blobs', 'policy-checks'), {
          recursive: true,
          withFileTypes: true,
        })
      )
        .filter((e) => e.isFile() && join(e.parentPath, e.name).includes(check.id))
        .map((e) => e.name);
    expect(await copies()).toEqual([p]);

    await admin.api.delete(`/api/v2/workspaces/${ws}`).expect(204);
    expect(await copies()).toEqual([]);
    await admin.api.get(`/api/v2/policy-checks/${check.id}`).expect(404);
    await ex.claim().expect(204);
  });
});

import { Actor, bootstrapAdmin, idOf, ISO_MILLIS, ISO_OFFSET, unique } from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import { claimJob, Executor, registeredExecutor, upload } from '../runs/run-fixtures';
import { GO_SLUG_CONFIGURATION, GO_SLUG_EMPTY_DIRECTORY, goTfe } from './go-tfe-requests';

jest.setTimeout(60_000);

/**
 * Configuration versions, runs, agent pools and agent tokens driven with the requests of the real
 * service's official Go client (go-tfe-requests.ts), asserting what its decoder reads: the types,
 * attribute names, timestamp formats and relationship names of its `Run`, `ConfigurationVersion`,
 * `AgentPool` and `AgentToken` structs.
 */
describe('runs and executors, as the official client drives them', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;
  let ws: string;
  let ex: Executor;

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    org = unique('gotfe');
    await admin.api.post('/api/v2/organizations', goTfe.organizationCreate(org)).expect(201);
    ws = (
      await admin.api
        .post(`/api/v2/organizations/${org}/workspaces`, goTfe.workspaceCreate('app', 'latest'))
        .expect(201)
    ).body.data.id;
  });
  afterAll(() => t.close());

  describe('agent pools and agent tokens', () => {
    it('create, read, list, update and delete a pool in the client shapes', async () => {
      const created = await admin.api
        .post(`/api/v2/organizations/${org}/agent-pools`, goTfe.agentPoolCreate('pool-a'))
        .expect(201);
      const id = created.body.data.id;
      expect(created.body.data).toEqual({
        id: expect.stringMatching(idOf('apool')),
        type: 'agent-pools',
        attributes: {
          name: 'pool-a',
          'organization-scoped': true,
          'agent-count': 0,
          'created-at': expect.stringMatching(ISO_MILLIS),
        },
        relationships: {
          organization: { data: { id: org, type: 'organizations' } },
          agents: { links: { related: `/api/v2/agent-pools/${id}/agents` } },
          'authentication-tokens': { links: { related: `/api/v2/agent-pools/${id}/authentication-tokens` } },
          workspaces: { data: [] },
          'allowed-workspaces': { data: [] },
          'allowed-projects': { data: [] },
          'excluded-workspaces': { data: [] },
        },
        links: { self: `/api/v2/agent-pools/${id}` },
      });
      expect((await admin.api.get(`/api/v2/agent-pools/${id}`).expect(200)).body.data).toEqual(
        created.body.data,
      );
      await admin.api.get(`/api/v2/agent-pools/${id}?include=workspaces`).expect(200);
      const listed = await admin.api.get(`/api/v2/organizations/${org}/agent-pools`).expect(200);
      expect(listed.body.data).toEqual([created.body.data]);
      const updated = await admin.api
        .patch(`/api/v2/agent-pools/${id}`, goTfe.agentPoolUpdate('pool-b'))
        .expect(200);
      expect(updated.body.data.attributes.name).toBe('pool-b');
      await admin.api.delete(`/api/v2/agent-pools/${id}`).expect(204);
      await admin.api.get(`/api/v2/agent-pools/${id}`).expect(404);
    });

    it('create tokens with the type agent-tokens; list, read and delete them', async () => {
      const pool = (
        await admin.api
          .post(`/api/v2/organizations/${org}/agent-pools`, goTfe.agentPoolCreate(unique('p')))
          .expect(201)
      ).body.data.id;
      const created = await admin.api
        .post(`/api/v2/agent-pools/${pool}/authentication-tokens`, goTfe.agentTokenCreate('ci'))
        .expect(201);
      const id = created.body.data.id;
      expect(created.body.data).toEqual({
        id: expect.stringMatching(idOf('at')),
        type: 'authentication-tokens',
        attributes: {
          description: 'ci',
          token: expect.any(String),
          'last-used-at': null,
          'created-at': expect.stringMatching(ISO_MILLIS),
        },
        relationships: { 'created-by': { data: { id: admin.userId, type: 'users' } } },
        links: { self: `/api/v2/authentication-tokens/${id}` },
      });
      const hidden = { ...created.body.data, attributes: { ...created.body.data.attributes, token: null } };
      expect(
        (await admin.api.get(`/api/v2/agent-pools/${pool}/authentication-tokens`).expect(200)).body.data,
      ).toEqual([hidden]);
      expect((await admin.api.get(`/api/v2/authentication-tokens/${id}`).expect(200)).body.data).toEqual(
        hidden,
      );
      await admin.api.delete(`/api/v2/authentication-tokens/${id}`).expect(204);
      await admin.api.get(`/api/v2/authentication-tokens/${id}`).expect(404);
    });
  });

  describe('configuration versions', () => {
    it('take the archive go-slug packs and show it uploaded', async () => {
      const created = await admin.api
        .post(`/api/v2/workspaces/${ws}/configuration-versions`, goTfe.configurationVersionCreate())
        .expect(201);
      const cv = created.body.data;
      expect(cv).toEqual({
        id: expect.stringMatching(idOf('cv')),
        type: 'configuration-versions',
        attributes: {
          'auto-queue-runs': false,
          speculative: false,
          provisional: false,
          source: 'tfe-api',
          status: 'pending',
          error: null,
          'error-message': null,
          'status-timestamps': { 'queued-at': expect.stringMatching(ISO_OFFSET) },
          'upload-url': expect.stringMatching(/^http:\/\/.+\/uploads\//),
        },
        links: {
          self: `/api/v2/configuration-versions/${cv.id}`,
          download: `/api/v2/configuration-versions/${cv.id}/download`,
        },
      });
      await upload(t, cv.attributes['upload-url'], GO_SLUG_CONFIGURATION).expect(200);
      const shown = await admin.api.get(`/api/v2/configuration-versions/${cv.id}`).expect(200);
      expect(shown.body.data.attributes).toMatchObject({ status: 'uploaded', 'error-message': null });
      expect(shown.body.data.attributes).not.toHaveProperty('upload-url');
      const listed = await admin.api.get(`/api/v2/workspaces/${ws}/configuration-versions`).expect(200);
      expect(listed.body.data.map((x: { id: string }) => x.id)).toContain(cv.id);
    });

    it('refuse the empty directory go-slug packs for the reason that applies', async () => {
      const cv = (
        await admin.api
          .post(`/api/v2/workspaces/${ws}/configuration-versions`, goTfe.configurationVersionCreate())
          .expect(201)
      ).body.data;
      const res = await upload(t, cv.attributes['upload-url'], GO_SLUG_EMPTY_DIRECTORY).expect(422);
      expect(res.body.errors[0].detail).toBe('The archive was refused: the archive contains no regular file');
      const shown = await admin.api.get(`/api/v2/configuration-versions/${cv.id}`).expect(200);
      expect(shown.body.data.attributes).toMatchObject({
        status: 'errored',
        'error-message': 'the archive contains no regular file',
      });
    });
  });

  describe('runs', () => {
    let cvId: string;

    beforeAll(async () => {
      const pool = (
        await admin.api
          .post(`/api/v2/organizations/${org}/agent-pools`, goTfe.agentPoolCreate(unique('exec')))
          .expect(201)
      ).body.data.id;
      const token = await admin.api
        .post(`/api/v2/agent-pools/${pool}/authentication-tokens`, goTfe.agentTokenCreate('executor'))
        .expect(201);
      ex = await registeredExecutor(t, token.body.data.attributes.token);
      const cv = (
        await admin.api
          .post(`/api/v2/workspaces/${ws}/configuration-versions`, goTfe.configurationVersionCreate())
          .expect(201)
      ).body.data;
      await upload(t, cv.attributes['upload-url'], GO_SLUG_CONFIGURATION).expect(200);
      cvId = cv.id;
    });

    /** The executor plans (or applies) the next job with one addition. */
    const work = async (kind: 'plan' | 'apply') => {
      const job = await claimJob(ex);
      expect(job.kind).toBe(kind);
      await ex
        .finish(job.id, {
          status: 'finished',
          'has-changes': true,
          'resource-additions': 1,
          'resource-changes': 0,
          'resource-destructions': 0,
        })
        .expect(204);
    };
    const read = async (id: string) => (await admin.api.get(`/api/v2/runs/${id}`).expect(200)).body.data;

    it('create, plan, apply with a comment: the shapes the client decodes at each step', async () => {
      const created = await admin.api
        .post('/api/v2/runs', goTfe.runCreate(ws, 'from go-tfe', cvId))
        .expect(201);
      const run = created.body.data;
      expect(run).toMatchObject({
        id: expect.stringMatching(idOf('run')),
        type: 'runs',
        attributes: {
          status: 'plan_queued',
          'status-timestamps': {
            'plan-queueable-at': expect.stringMatching(ISO_OFFSET),
            'plan-queued-at': expect.stringMatching(ISO_OFFSET),
          },
          message: 'from go-tfe',
          source: 'tfe-api',
          'trigger-reason': 'manual',
          'is-destroy': false,
          'plan-only': false,
          'has-changes': false,
          'canceled-at': null,
          'created-at': expect.stringMatching(ISO_MILLIS),
          actions: {
            'is-cancelable': true,
            'is-confirmable': false,
            'is-discardable': false,
            'is-force-cancelable': false,
          },
          permissions: expect.objectContaining({
            'can-apply': true,
            'can-cancel': true,
            'can-discard': true,
            'can-force-cancel': true,
          }),
        },
        relationships: {
          workspace: { data: { id: ws, type: 'workspaces' } },
          'configuration-version': { data: { id: cvId, type: 'configuration-versions' } },
          'created-by': { data: { id: admin.userId, type: 'users' } },
          plan: { data: { id: expect.stringMatching(idOf('plan')), type: 'plans' } },
          apply: { data: { id: expect.stringMatching(idOf('apply')), type: 'applies' } },
        },
        links: { self: `/api/v2/runs/${run.id}` },
      });
      await work('plan');
      const planned = await read(run.id);
      expect(planned.attributes).toMatchObject({
        status: 'planned',
        'has-changes': true,
        actions: {
          'is-cancelable': false,
          'is-confirmable': true,
          'is-discardable': true,
          'is-force-cancelable': false,
        },
      });
      const plan = await admin.api.get(`/api/v2/plans/${planned.relationships.plan.data.id}`).expect(200);
      expect(plan.body.data).toMatchObject({
        type: 'plans',
        attributes: {
          status: 'finished',
          'has-changes': true,
          'resource-additions': 1,
          'resource-changes': 0,
          'resource-destructions': 0,
        },
      });
      await admin.api.post(`/api/v2/runs/${run.id}/actions/apply`, goTfe.runAction('ship it')).expect(202);
      expect((await read(run.id)).attributes.status).toBe('apply_queued');
      await work('apply');
      expect((await read(run.id)).attributes.status).toBe('applied');
      const apply = await admin.api.get(`/api/v2/applies/${planned.relationships.apply.data.id}`).expect(200);
      expect(apply.body.data).toMatchObject({
        type: 'applies',
        attributes: { status: 'finished', 'resource-additions': 1 },
      });
    });

    it('create without a configuration version (data: null) and discard once planned', async () => {
      const run = (await admin.api.post('/api/v2/runs', goTfe.runCreate(ws, 'to discard', null)).expect(201))
        .body.data;
      expect(run.relationships['configuration-version'].data).toEqual({
        id: cvId,
        type: 'configuration-versions',
      });
      await work('plan');
      await admin.api.post(`/api/v2/runs/${run.id}/actions/discard`, goTfe.runAction('no')).expect(202);
      expect((await read(run.id)).attributes).toMatchObject({
        status: 'discarded',
        actions: expect.objectContaining({ 'is-discardable': false }),
      });
    });

    it('cancel a queued run, then list with the snake_case includes and filter[status]', async () => {
      const run = (
        await admin.api
          .post('/api/v2/runs', goTfe.runCreate(ws, 'to cancel', null, { 'is-destroy': false }))
          .expect(201)
      ).body.data;
      await admin.api.post(`/api/v2/runs/${run.id}/actions/cancel`, goTfe.runAction('stop')).expect(202);
      expect((await read(run.id)).attributes.status).toBe('canceled');
      await admin.api.post(`/api/v2/runs/${run.id}/actions/cancel`, goTfe.runAction('again')).expect(409);

      const include = 'workspace%2Cplan%2Capply%2Ccreated_by%2Cconfiguration_version';
      const listed = await admin.api.get(`/api/v2/workspaces/${ws}/runs?include=${include}`).expect(200);
      expect(listed.body.data).toHaveLength(3);
      const types = new Set(listed.body.included.map((x: { type: string }) => x.type));
      expect(types).toEqual(new Set(['workspaces', 'plans', 'applies', 'users', 'configuration-versions']));
      const user = listed.body.included.find((x: { type: string }) => x.type === 'users');
      expect(user.id).toBe(admin.userId);
      const ended = await admin.api
        .get(`/api/v2/workspaces/${ws}/runs?filter%5Bstatus%5D=canceled%2Cdiscarded`)
        .expect(200);
      expect(
        ended.body.data.map((r: { attributes: { status: string } }) => r.attributes.status).sort(),
      ).toEqual(['canceled', 'discarded']);
    });
  });
});

import { DataSource } from 'typeorm';
import { AuditRecorder } from '../../src/audit/audit.recorder';
import { AuditRepository } from '../../src/audit/audit.repository';
import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createOrganizationToken,
  createTeam,
  createTeamToken,
  createUser,
  createWorkspace,
  memberWith,
} from '../helpers/fixtures';
import { client, startApp, TestApp } from '../helpers/test-app';
import { agentCall, createAgentToken, createPool, registerAgent } from '../agent-pools/helpers';
import { auditEventAt } from '../helpers/audit-events';
import { errorsOf } from '../helpers/shapes';
import { until } from '../helpers/partial-upload';
import { createRun, PLANNED_WITH_CHANGES, uploadedVersion } from '../runs/run-fixtures';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface AuditEvent {
  id: string;
  timestamp: string;
  auth: Record<string, unknown>;
  request: Record<string, unknown>;
  resource: Record<string, unknown>;
}

describe('the audit trail', () => {
  let t: TestApp;
  let admin: Actor;
  let owner: Actor;
  let org: string;

  beforeAll(async () => {
    t = await startApp({ AUDIT_RETENTION_DAYS: '30' });
    admin = await bootstrapAdmin(t);
    owner = await createUser(t, admin);
    org = await createOrganization(owner);
  });
  afterAll(() => t.close());

  const trail = async (actor: Actor, query = '') => {
    const res = await actor.api.get(`/api/v2/organization/audit-trail?filter[organization]=${org}${query}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-store');
    return res.body as { data: AuditEvent[]; pagination: Record<string, number | null> };
  };

  it('records who did what, when, from where and how it ended, in the real service’s shape', async () => {
    const before = new Date(Date.now() - 1).toISOString();
    const ws = await owner.api
      .post(`/api/v2/organizations/${org}/workspaces`, {
        data: { type: 'workspaces', attributes: { name: 'audited' } },
      })
      .set('X-Request-Id', 'req-audit-1')
      .expect(201);
    const body = await trail(owner, `&since=${before}`);
    expect(body.data).toEqual([
      {
        id: expect.stringMatching(UUID),
        version: '0',
        type: 'Resource',
        timestamp: expect.stringMatching(ISO),
        auth: {
          accessor_id: owner.userId,
          accessor_type: 'user',
          description: expect.stringMatching(/^user-/),
          type: 'Client',
          impersonator_id: null,
          organization_id: org,
          token_id: expect.stringMatching(/^at-/),
        },
        request: {
          id: 'req-audit-1',
          method: 'POST',
          route: '/api/v2/organizations/:org/workspaces',
          client_address: expect.stringMatching(/127\.0\.0\.1$/),
          status: 201,
          outcome: 'success',
          error_code: null,
        },
        resource: { id: ws.body.data.id, type: 'workspaces', action: 'create', meta: null },
      },
    ]);
    expect(body.pagination).toEqual({
      current_page: 1,
      page_size: 1000,
      prev_page: null,
      next_page: null,
      total_pages: 1,
      total_count: 1,
    });
  });

  it('records refused writes as failures, and never a body, a query string or a secret', async () => {
    const before = new Date(Date.now() - 1).toISOString();
    const ws = await createWorkspace(owner, org);
    // Refused by the service (the name is taken), once it knew the organization.
    await owner.api
      .patch(`/api/v2/workspaces/${ws}?secret=query-value`, {
        data: { type: 'workspaces', attributes: { name: 'audited', description: 'body-secret' } },
      })
      .expect(422);
    // Refused with a code the client can branch on, as on the answer's error object.
    await owner.api.post(`/api/v2/workspaces/${ws}/actions/lock`).expect(200);
    await owner.api.post(`/api/v2/workspaces/${ws}/actions/lock`).expect(409);
    const token = await owner.api.post(`/api/v2/organizations/${org}/authentication-token`).expect(201);
    const events = (await trail(owner, `&since=${before}`)).data;
    expect(
      events.map((e) => [
        e.request.method,
        e.resource.type,
        e.resource.action,
        e.request.outcome,
        e.request.error_code,
      ]),
    ).toEqual([
      ['POST', 'workspaces', 'create', 'success', null],
      ['PATCH', 'workspaces', 'update', 'failure', 'NAME_TAKEN'],
      ['POST', 'workspaces', 'lock', 'success', null],
      ['POST', 'workspaces', 'lock', 'failure', 'WORKSPACE_ALREADY_LOCKED'],
      ['POST', 'authentication-tokens', 'create', 'success', null],
    ]);
    expect(events[1].request.status).toBe(422);
    expect(events[1].resource.id).toBe(ws);
    const stored = JSON.stringify(events);
    for (const secret of ['query-value', 'body-secret', token.body.data.attributes.token, owner.token]) {
      expect(stored).not.toContain(secret);
    }
  });

  it('files actions by team and organization tokens under their organization', async () => {
    const before = new Date(Date.now() - 1).toISOString();
    const teamToken = await createTeamToken(t, owner, await createTeam(owner, org, ['manage-workspaces']));
    await teamToken.api
      .post(`/api/v2/organizations/${org}/workspaces`, {
        data: { type: 'workspaces', attributes: { name: 'by-team' } },
      })
      .expect(201);
    const events = (await trail(owner, `&since=${before}`)).data;
    const byTeam = events.find((e) => e.auth.accessor_type === 'team')!;
    expect(byTeam.auth).toMatchObject({ organization_id: org, description: null });
    expect(byTeam.resource).toMatchObject({ type: 'workspaces', action: 'create' });
  });

  it('records executors’ writes as the agent’s, and leaves out polls that found no work', async () => {
    const before = new Date(Date.now() - 1).toISOString();
    const pool = await createPool(owner, org, 'audited-pool');
    const agentToken = await createAgentToken(owner, pool);
    const agentId = await registerAgent(t, agentToken.secret);
    for (let i = 0; i < 3; i++)
      await agentCall(t, '/jobs/claim', agentToken.secret, agentId).send({}).expect(204);
    const events = (await trail(owner, `&since=${before}`)).data;
    expect(events.map((e) => [e.auth.accessor_type, e.resource.type, e.resource.action])).toEqual([
      ['user', 'agent-pools', 'create'],
      ['user', 'authentication-tokens', 'create'],
      ['agent', 'agents', 'register'],
    ]);
    // The agent does not exist until its registration is answered: the token says who it was.
    expect(events[2].auth).toMatchObject({
      accessor_id: null,
      token_id: agentToken.id,
      organization_id: org,
    });
    expect(agentId).toMatch(/^agent-/);
  });

  it('records a job’s claim and reports as the agent’s, in its organization, with the job reported', async () => {
    const ws = await createWorkspace(owner, org);
    const cvId = await uploadedVersion(t, owner, ws);
    const pool = await createPool(owner, org, 'audited-runs');
    const agentToken = await createAgentToken(owner, pool);
    const agentId = await registerAgent(t, agentToken.secret, 'runner-7');
    await createRun(owner, ws, { 'auto-apply': true }, cvId);
    // The run's own event is stamped when its response finishes, which may be just after the client
    // has read it: wait until it is recorded, so that `since` falls strictly after it.
    await until('the run’s creation is recorded', async () => {
      await t.app.get(AuditRecorder).flush();
      return (await trail(owner)).data.some((e) => e.request.route === '/api/v2/runs') || undefined;
    });
    await new Promise((r) => setTimeout(r, 2));
    const before = new Date(Date.now() - 1).toISOString();
    const claimed = await agentCall(t, '/jobs/claim', agentToken.secret, agentId).send({}).expect(200);
    const jobId = claimed.body.job.id as string;
    // The plan's report claims the apply it queued: still the finish of the plan's job.
    const handed = await agentCall(t, `/jobs/${jobId}/finish?next=true`, agentToken.secret, agentId)
      .send(PLANNED_WITH_CHANGES)
      .expect(200);
    const applyId = handed.body.job.id as string;
    await agentCall(t, `/jobs/${applyId}/finish`, agentToken.secret, agentId)
      .send({ status: 'finished' })
      .expect(204);
    const events = (await trail(owner, `&since=${before}`)).data;
    const agent = {
      accessor_id: agentId,
      accessor_type: 'agent',
      description: 'runner-7',
      type: 'Client',
      impersonator_id: null,
      organization_id: org,
      token_id: agentToken.id,
    };
    expect(events.map((e) => [e.auth, e.request.route, e.request.status, e.resource])).toEqual([
      [agent, '/api/v2/agent/jobs/claim', 200, { id: null, type: 'jobs', action: 'claim', meta: null }],
      [
        agent,
        '/api/v2/agent/jobs/:id/finish',
        200,
        { id: jobId, type: 'jobs', action: 'finish', meta: null },
      ],
      [
        agent,
        '/api/v2/agent/jobs/:id/finish',
        204,
        { id: applyId, type: 'jobs', action: 'finish', meta: null },
      ],
    ]);
  });

  it('records uploads to signed links with the resource the link stands for', async () => {
    const ws = await createWorkspace(owner, org);
    const before = new Date(Date.now() - 1).toISOString();
    const cvId = await uploadedVersion(t, owner, ws);
    await t.app.get(AuditRecorder).flush();
    const res = await admin.api.get(`/api/v2/admin/audit-trail?since=${before}`).expect(200);
    const upload = (res.body.data as AuditEvent[]).find((e) => e.request.method === 'PUT')!;
    expect(upload).toMatchObject({
      auth: { accessor_type: 'anonymous', accessor_id: null, token_id: null },
      request: { route: '/uploads/:token', status: 200, outcome: 'success' },
      resource: { id: cvId, type: 'uploads', action: 'configuration-version-upload', meta: null },
    });
  });

  it('records writes refused before routing, with the route they were sent to', async () => {
    const before = new Date(Date.now() - 1).toISOString();
    const ws = await createWorkspace(owner, org);
    await owner.api
      .patch(`/api/v2/workspaces/${ws}`, { data: { type: 'workspaces', attributes: { name: 'bad\ud800' } } })
      .expect(422);
    await owner.api
      .post(`/api/v2/organizations/${org}/workspaces`)
      .set('Content-Type', 'application/vnd.api+json')
      .send('{"data":')
      .expect(400);
    await t.app.get(AuditRecorder).flush();
    const res = await admin.api.get(`/api/v2/admin/audit-trail?since=${before}`).expect(200);
    const refused = (res.body.data as AuditEvent[]).filter((e) => e.request.outcome === 'failure');
    expect(
      refused.map((e) => [
        e.auth.accessor_type,
        e.request.method,
        e.request.route,
        e.request.status,
        e.request.error_code,
        e.resource,
      ]),
    ).toEqual([
      [
        'anonymous',
        'PATCH',
        '/api/v2/workspaces/:id',
        422,
        null,
        { id: ws, type: 'workspaces', action: 'update', meta: null },
      ],
      [
        'anonymous',
        'POST',
        '/api/v2/organizations/:org/workspaces',
        400,
        null,
        { id: null, type: 'workspaces', action: 'create', meta: null },
      ],
    ]);
    expect(JSON.stringify(res.body)).not.toContain(owner.token);
  });

  it('lets organization tokens read their own trail without naming the organization', async () => {
    const orgToken = await createOrganizationToken(t, owner, org);
    const res = await orgToken.api.get('/api/v2/organization/audit-trail?page[size]=2').expect(200);
    expect(res.body.data).toHaveLength(2);
    expect(res.body.data.every((e: AuditEvent) => e.auth.organization_id === org)).toBe(true);
    expect(res.body.pagination).toMatchObject({
      current_page: 1,
      page_size: 2,
      prev_page: null,
      next_page: 2,
    });
    const other = await createOrganization(owner);
    await orgToken.api.get(`/api/v2/organization/audit-trail?filter[organization]=${other}`).expect(404);
  });

  it('is closed to members who do not own the organization, and to other organizations’ owners', async () => {
    const member = await memberWith(t, admin, owner, org, ['manage-workspaces']);
    const res = await member.api
      .get(`/api/v2/organization/audit-trail?filter[organization]=${org}`)
      .expect(404);
    expect(res.body).toEqual(errorsOf(404));
    await member.api.get('/api/v2/organization/audit-trail').expect(404);
    const stranger = await createUser(t, admin);
    await stranger.api.get(`/api/v2/organization/audit-trail?filter[organization]=${org}`).expect(404);
    const teamToken = await createTeamToken(t, owner, member.teamId);
    await teamToken.api.get('/api/v2/organization/audit-trail').expect(404);
    await stranger.api.get('/api/v2/admin/audit-trail').expect(404);
  });

  it('shows site administrators everything, including writes in no organization', async () => {
    const before = new Date(Date.now() - 1).toISOString();
    const user = await createUser(t, admin);
    await admin.api.post(`/api/v2/admin/users/${user.userId}/actions/suspend`).expect(200);
    await client(t)
      .post('/api/v2/login', {
        data: {
          type: 'authentication-tokens',
          attributes: { username: 'admin', password: 'wrong-password' },
        },
      })
      .expect(401);
    const res = await admin.api.get(`/api/v2/admin/audit-trail?since=${before}`).expect(200);
    const events = res.body.data as AuditEvent[];
    expect(events.map((e) => [e.resource.type, e.resource.action, e.request.status])).toEqual([
      ['users', 'create', 201],
      ['authentication-tokens', 'create', 201],
      ['users', 'suspend', 200],
      ['login', 'create', 401],
    ]);
    expect(events[2]).toMatchObject({
      auth: { accessor_id: admin.userId, description: 'admin', organization_id: null },
      resource: { id: user.userId },
    });
    expect(events[3].auth).toMatchObject({
      accessor_type: 'anonymous',
      accessor_id: null,
      type: 'Anonymous',
    });
    const all = await admin.api.get('/api/v2/organization/audit-trail?page[size]=1').expect(200);
    expect(all.body.pagination.total_count).toBeGreaterThan(events.length);
    const one = await admin.api.get(`/api/v2/admin/audit-trail?filter[organization]=${org}`).expect(200);
    expect(one.body.data.every((e: AuditEvent) => e.auth.organization_id === org)).toBe(true);
  });

  it('refuses malformed since and page parameters', async () => {
    const since = await owner.api
      .get(`/api/v2/organization/audit-trail?filter[organization]=${org}&since=yesterday`)
      .expect(400);
    expect(since.body).toEqual(
      errorsOf(400, { detail: 'since must be an ISO 8601 timestamp', parameter: 'since' }),
    );
    const size = await owner.api
      .get(`/api/v2/organization/audit-trail?filter[organization]=${org}&page[size]=1001`)
      .expect(422);
    expect(size.body).toEqual(
      errorsOf(422, { detail: 'page[size] must be between 1 and 1000', parameter: 'page[size]' }),
    );
  });

  it('sorts by timestamp either way, id breaking ties, and refuses other sort fields', async () => {
    const oldest = (await trail(owner)).data;
    expect(oldest.length).toBeGreaterThan(2);
    const newest = (await trail(owner, '&sort=-timestamp')).data;
    expect(newest.map((e) => e.id)).toEqual(oldest.map((e) => e.id).reverse());
    expect((await trail(owner, '&sort=timestamp')).data.map((e) => e.id)).toEqual(oldest.map((e) => e.id));
    const firstOfNewest = (await trail(owner, '&sort=-timestamp&page[size]=1')).data;
    expect(firstOfNewest.map((e) => e.id)).toEqual([newest[0].id]);
    const refused = await owner.api
      .get(`/api/v2/organization/audit-trail?filter[organization]=${org}&sort=resource`)
      .expect(400);
    expect(refused.body).toEqual(
      errorsOf(400, {
        detail: 'sort field resource is not supported; allowed: timestamp',
        parameter: 'sort',
      }),
    );
  });

  it('prunes events older than AUDIT_RETENTION_DAYS', async () => {
    const recorder = t.app.get(AuditRecorder);
    await recorder.flush();
    const total = async () =>
      (await admin.api.get('/api/v2/admin/audit-trail?page[size]=1').expect(200)).body.pagination
        .total_count as number;
    const before = await total();
    expect(await recorder.prune(new Date(Date.now() + 29 * 86_400_000))).toBe(0);
    // The list read above is not a write; nothing new was recorded.
    expect(await total()).toBe(before);
    expect(await recorder.prune(new Date(Date.now() + 31 * 86_400_000))).toBe(before);
    expect(await total()).toBe(0);
  });
});

describe('the audit trail, turned off', () => {
  it('records nothing with AUDIT_RETENTION_DAYS=0', async () => {
    const t = await startApp({ AUDIT_RETENTION_DAYS: '0' });
    try {
      const admin = await bootstrapAdmin(t);
      await createOrganization(admin);
      const res = await admin.api.get('/api/v2/admin/audit-trail').expect(200);
      expect(res.body).toEqual({
        data: [],
        pagination: {
          current_page: 1,
          page_size: 1000,
          prev_page: null,
          next_page: null,
          total_pages: 0,
          total_count: 0,
        },
      });
    } finally {
      await t.close();
    }
  });
});

describe('the audit trail’s total count', () => {
  let t: TestApp;
  let owner: Actor;
  let org: string;

  beforeAll(async () => {
    t = await startApp({ AUDIT_RETENTION_DAYS: '30' });
    const admin = await bootstrapAdmin(t);
    owner = await createUser(t, admin);
    org = await createOrganization(owner);
  });
  afterAll(() => t.close());

  const HOUR = 3_600_000;
  const listed = async (since: Date) => {
    const res = await owner.api
      .get(
        `/api/v2/organization/audit-trail?filter[organization]=${org}&page[size]=100&since=${since.toISOString()}`,
      )
      .expect(200);
    return {
      rows: (res.body.data as AuditEvent[]).length,
      total: res.body.pagination.total_count as number,
    };
  };

  it('equals the events listed since any instant, on and off the hour, before and after a prune', async () => {
    await t.app.get(AuditRecorder).flush();
    const [{ id: organizationId }] = await t.app
      .get(DataSource)
      .query<{ id: string }[]>('SELECT id FROM organizations WHERE name = ?', [org]);
    const base = Math.floor(Date.now() / HOUR) * HOUR - 10 * HOUR;
    const offsets = [-1, 0, 1, HOUR / 2, HOUR - 1, HOUR, HOUR + 1, 2.5 * HOUR, 5 * HOUR];
    const repo = t.app.get(AuditRepository);
    await repo.insertMany(
      offsets.map((o) => auditEventAt(organizationId, base + o)),
    );
    const sinces = [-2 * HOUR, -1, 0, 1, HOUR / 2, HOUR - 1, HOUR, 3 * HOUR, 6 * HOUR].map(
      (o) => new Date(base + o),
    );
    const first = await listed(new Date(base - 2 * HOUR));
    // Every seeded event, and the organization's own creation (recorded now).
    expect(first.rows).toBe(offsets.length + 1);
    for (const since of sinces) {
      const { rows, total } = await listed(since);
      expect({ since, total }).toEqual({ since, total: rows });
    }
    // A prune in the middle of an hour takes its events out of the hour's count.
    expect(await repo.pruneBefore(new Date(base + HOUR / 2 + 1))).toBe(4);
    for (const since of sinces) {
      const { rows, total } = await listed(since);
      expect({ since, total }).toEqual({ since, total: rows });
    }
    expect((await listed(new Date(base - 2 * HOUR))).rows).toBe(offsets.length + 1 - 4);
  });
});

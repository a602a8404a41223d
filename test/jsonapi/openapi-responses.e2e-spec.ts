import request from 'supertest';
import { Actor, bootstrapAdmin, createOrganization, createUser, unique } from '../helpers/fixtures';
import { OpenApiDoc, Recorded, recordOf, ResponseValidator } from '../helpers/openapi-check';
import { JSONAPI, startApp, TestApp } from '../helpers/test-app';

/**
 * Real answers checked against the OpenAPI document: a walk that writes and reads resources of
 * most types (and provokes the error statuses), then follows every `links.self`, `links.related`
 * and list link it was given. Each answer must be documented for its operation and status, under
 * the Content-Type it was sent with, match that schema, and use only declared field names.
 */
describe('recorded answers match the OpenAPI document', () => {
  let t: TestApp;
  let admin: Actor;
  let owner: Actor;
  let doc: OpenApiDoc;
  const recorded: Recorded[] = [];

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    owner = await createUser(t, admin);
    doc = (await request(t.origin).get('/docs-json').expect(200)).body as OpenApiDoc;
  });
  afterAll(() => t.close());

  type Method = 'get' | 'post' | 'patch' | 'delete';
  async function call(actor: Actor, method: Method, path: string, body?: unknown, status?: number) {
    const send = actor.api[method];
    const res = await send(path, body);
    recorded.push(recordOf(method, path, res));
    if (status !== undefined) expect({ path, status: res.status }).toEqual({ path, status });
    return res;
  }
  const create = async (path: string, type: string, attributes: object, relationships?: object) =>
    (await call(owner, 'post', path, { data: { type, attributes, relationships } }, 201)).body.data as {
      id: string;
    };

  it('for a walk through the API, its errors, and every link it was given', async () => {
    const org = await createOrganization(owner);
    const o = `/api/v2/organizations/${org}`;
    await call(owner, 'get', o, undefined, 200);
    await call(owner, 'get', '/api/v2/organizations?sort=-name', undefined, 200);
    const project = await create(`${o}/projects`, 'projects', { name: 'prj', description: 'd' });
    const ws = await create(
      `${o}/workspaces`,
      'workspaces',
      { name: 'ws-a' },
      {
        project: { data: { type: 'projects', id: project.id } },
      },
    );
    const ws2 = await create(`${o}/workspaces`, 'workspaces', { name: 'ws-b' });
    await call(
      owner,
      'patch',
      `/api/v2/workspaces/${ws.id}`,
      { data: { type: 'workspaces', attributes: { description: 'x' } } },
      200,
    );
    await call(
      owner,
      'get',
      `${o}/workspaces?include=project&fields[workspaces]=name,project&sort=-created-at`,
      undefined,
      200,
    );
    const team = await create(`${o}/teams`, 'teams', { name: 'devs' });
    await create(
      '/api/v2/team-workspaces',
      'team-workspaces',
      { access: 'read' },
      {
        team: { data: { type: 'teams', id: team.id } },
        workspace: { data: { type: 'workspaces', id: ws.id } },
      },
    );
    await call(owner, 'get', `/api/v2/team-workspaces?filter[workspace][id]=${ws.id}`, undefined, 200);
    const policy = await create(`${o}/policies`, 'policies', {
      name: 'deny-all',
      kind: 'framework_b',
      query: 'data.main.deny',
      'enforcement-level': 'mandatory',
    });
    const set = await create(
      `${o}/policy-sets`,
      'policy-sets',
      { name: 'set-a', kind: 'framework_b' },
      {
        policies: { data: [{ type: 'policies', id: policy.id }] },
        workspaces: { data: [{ type: 'workspaces', id: ws.id }] },
      },
    );
    await call(owner, 'get', `/api/v2/policy-sets/${set.id}?include=policies,workspaces`, undefined, 200);
    await call(owner, 'get', `${o}/policy-sets?include=policies&sort=name`, undefined, 200);
    await call(owner, 'get', `/api/v2/workspaces/${ws.id}/effective-policy-sets`, undefined, 200);
    await create(`${o}/reserved-tag-keys`, 'reserved-tag-keys', { key: 'env', 'disable-overrides': false });
    await call(
      owner,
      'patch',
      `/api/v2/workspaces/${ws.id}/tag-bindings`,
      {
        data: [{ type: 'tag-bindings', attributes: { key: 'team', value: 'a' } }],
      },
      200,
    );
    await call(owner, 'get', `/api/v2/workspaces/${ws.id}/effective-tag-bindings?sort=-key`, undefined, 200);
    await call(
      owner,
      'post',
      `/api/v2/workspaces/${ws.id}/run-triggers`,
      {
        data: { relationships: { sourceable: { data: { type: 'workspaces', id: ws2.id } } } },
      },
      201,
    );
    await call(
      owner,
      'get',
      `/api/v2/workspaces/${ws.id}/run-triggers?filter[run-trigger][type]=inbound&include=sourceable`,
      undefined,
      200,
    );
    await create(`${o}/agent-pools`, 'agent-pools', { name: 'pool-a' });
    await call(owner, 'get', `${o}/agent-pools?include=workspaces&sort=name`, undefined, 200);
    await create(`${o}/registry-providers`, 'registry-providers', {
      name: 'aws',
      namespace: org,
      'registry-name': 'private',
    });
    await call(
      owner,
      'post',
      `/api/v2/users/${owner.userId}/authentication-tokens`,
      {
        data: { type: 'authentication-tokens', attributes: { description: 'ci' } },
      },
      201,
    );
    await call(owner, 'get', `/api/v2/users/${owner.userId}/authentication-tokens`, undefined, 200);
    await call(owner, 'get', '/api/v2/account/details', undefined, 200);
    await call(admin, 'get', '/api/v2/admin/engine-versions?sort=-version', undefined, 200);

    // Errors, each with its own status.
    await call(owner, 'get', `/api/v2/workspaces/ws-${'0'.repeat(16)}`, undefined, 404);
    await call(owner, 'get', `/api/v2/policy-sets/${set.id}?include=nope`, undefined, 400);
    await call(owner, 'get', `${o}/workspaces?sort=size`, undefined, 400);
    await call(owner, 'get', `${o}/workspaces?page[size]=101`, undefined, 422);
    await call(owner, 'post', `${o}/projects`, { data: { type: 'projects', attributes: {} } }, 422);
    await call(
      owner,
      'post',
      `${o}/projects`,
      { data: { type: 'projects', id: 'prj-x', attributes: { name: 'p' } } },
      403,
    );
    const anonymous = await request(t.origin).get(`${o}/workspaces`);
    recorded.push(recordOf('get', `${o}/workspaces`, anonymous));
    const notAcceptable = await request(t.origin)
      .get(`${o}/workspaces`)
      .set('Authorization', `Bearer ${owner.token}`)
      .set('Accept', `${JSONAPI}; ext=x`);
    recorded.push(recordOf('get', `${o}/workspaces`, notAcceptable));
    const unsupported = await request(t.origin)
      .post(`${o}/projects`)
      .set('Authorization', `Bearer ${owner.token}`)
      .set('Content-Type', `${JSONAPI}; ext=x`)
      .send('{}');
    recorded.push(recordOf('post', `${o}/projects`, unsupported));
    expect([anonymous.status, notAcceptable.status, unsupported.status]).toEqual([401, 406, 415]);

    // Every link the answers gave, followed once.
    const seen = new Set(recorded.map((r) => r.path));
    const queue = linksIn(recorded.map((r) => r.body));
    while (queue.length) {
      const link = queue.shift()!;
      const path = link.startsWith('http') ? new URL(link).pathname + new URL(link).search : link;
      if (!path.startsWith('/api/v2/') || seen.has(path.split('?')[0])) continue;
      seen.add(path.split('?')[0]);
      const res = await call(owner, 'get', path);
      queue.push(...linksIn([res.body]));
    }

    expect(recorded.length).toBeGreaterThan(50);
    const validator = new ResponseValidator(doc);
    expect(recorded.flatMap((r) => validator.problems(r))).toEqual([]);
    // Every kind of answer was seen at least once.
    expect(new Set(recorded.map((r) => r.status))).toEqual(
      new Set([200, 201, 400, 401, 403, 404, 406, 415, 422]),
    );
  });

  it('notices an answer the document does not describe', () => {
    const validator = new ResponseValidator(doc);
    const base = { method: 'get', path: `/api/v2/workspaces/ws-${unique('x')}`, contentType: JSONAPI };
    expect(
      validator.problems({ ...base, status: 200, body: { data: { id: 'x', type: 'workspaces' } } }),
    ).toEqual([expect.stringContaining("must have required property 'attributes'")]);
    expect(validator.problems({ ...base, status: 418, body: {} })).toEqual([
      expect.stringContaining('status not documented'),
    ]);
    const undeclared = validator.problems({
      ...base,
      status: 200,
      body: { data: { id: 'x', type: 'workspaces', attributes: { 'not-a-field': 1 } } },
    });
    expect(undeclared).toContainEqual(expect.stringContaining('workspaces.not-a-field is not a declared field'));
    // Attributes a type always carries are required: an answer that leaves one out is a problem…
    expect(undeclared).toContainEqual(
      expect.stringContaining("/data/attributes must have required property 'name'"),
    );
    // …unless the caller asked for a sparse fieldset.
    expect(
      validator.problems({
        ...base,
        sparse: true,
        status: 200,
        body: { data: { id: 'x', type: 'workspaces', attributes: {} } },
      }),
    ).toEqual([]);
  });
});

/** `links.self`/`links.related` of resources and relationships, and list `next` links. */
function linksIn(bodies: unknown[]): string[] {
  const out: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      if (k === 'links' && v && typeof v === 'object') {
        for (const [rel, href] of Object.entries(v)) {
          if (typeof href === 'string' && ['self', 'related', 'next'].includes(rel)) out.push(href);
        }
      } else visit(v);
    }
  };
  bodies.forEach(visit);
  return out;
}

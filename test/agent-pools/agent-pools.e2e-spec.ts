import {
  Actor,
  createOrganization,
  createUser,
  createWorkspace,
  expectPagination,
  idOf,
  ISO_MILLIS,
  memberWith,
  unique,
  startWithOwnedOrganization,
} from '../helpers/fixtures';
import { TestApp } from '../helpers/test-app';
import { createAgentToken, createPool, poolBody, registerAgent } from './helpers';

describe('agent pools', () => {
  let t: TestApp;
  let admin: Actor;
  let owner: Actor;
  let org: string;

  beforeAll(async () => {
    ({ t, admin, owner, org } = await startWithOwnedOrganization());
  });
  afterAll(() => t.close());

  it('creates an organization-scoped pool by default, in the shape go-tfe decodes', async () => {
    const res = await owner.api
      .post(`/api/v2/organizations/${org}/agent-pools`, poolBody({ name: 'linux-amd64' }))
      .expect(201);
    const id = res.body.data.id;
    expect(res.body).toEqual({
      data: {
        id: expect.stringMatching(idOf('apool')),
        type: 'agent-pools',
        attributes: {
          name: 'linux-amd64',
          'organization-scoped': true,
          'agent-count': 0,
          'created-at': expect.stringMatching(ISO_MILLIS),
        },
        relationships: {
          organization: { data: { type: 'organizations', id: org } },
          agents: { links: { related: `/api/v2/agent-pools/${id}/agents` } },
          'authentication-tokens': { links: { related: `/api/v2/agent-pools/${id}/authentication-tokens` } },
          workspaces: { data: [] },
          'allowed-workspaces': { data: [] },
          'allowed-projects': { data: [] },
          'excluded-workspaces': { data: [] },
        },
        links: { self: `/api/v2/agent-pools/${id}` },
      },
    });
    const shown = await owner.api.get(`/api/v2/agent-pools/${id}`).expect(200);
    expect(shown.body).toEqual(res.body);
  });

  it('refuses a duplicate name, a bad name and unsupported relationships with 422s', async () => {
    const name = unique('dup');
    await createPool(owner, org, name);
    const dup = await owner.api
      .post(`/api/v2/organizations/${org}/agent-pools`, poolBody({ name }))
      .expect(422);
    expect(dup.body.errors).toEqual([
      {
        status: '422',
        title: 'invalid attribute',
        code: 'NAME_TAKEN',
        detail: 'Name has already been taken',
        source: { pointer: '/data/attributes/name' },
      },
    ]);
    const bad = await owner.api
      .post(`/api/v2/organizations/${org}/agent-pools`, poolBody({ name: 'no spaces' }))
      .expect(422);
    expect(bad.body.errors[0].source).toEqual({ pointer: '/data/attributes/name' });
    await owner.api
      .post(`/api/v2/organizations/${org}/agent-pools`, {
        data: {
          type: 'agent-pools',
          attributes: { name: unique('p') },
          relationships: { 'allowed-projects': { data: [{ type: 'projects', id: 'prj-x' }] } },
        },
      })
      .expect(422);
  });

  it('keeps allowed workspaces and lists pools usable by a workspace', async () => {
    const ws = await createWorkspace(owner, org);
    const other = await createWorkspace(owner, org);
    const scoped = await createPool(owner, org, unique('scoped'));
    const narrow = await createPool(owner, org, unique('narrow'), { 'organization-scoped': false }, [ws]);
    const closed = await createPool(owner, org, unique('closed'), { 'organization-scoped': false }, [other]);
    const shown = await owner.api.get(`/api/v2/agent-pools/${narrow}?include=workspaces`).expect(200);
    expect(shown.body.data.relationships['allowed-workspaces']).toEqual({
      data: [{ type: 'workspaces', id: ws }],
    });
    expect(shown.body.included).toEqual([expect.objectContaining({ id: ws, type: 'workspaces' })]);
    const wsName = (await owner.api.get(`/api/v2/workspaces/${ws}`).expect(200)).body.data.attributes.name;
    const usable = await owner.api
      .get(
        `/api/v2/organizations/${org}/agent-pools?filter%5Ballowed_workspaces%5D%5Bname%5D=${wsName}&page%5Bsize%5D=100`,
      )
      .expect(200);
    const ids = usable.body.data.map((d: { id: string }) => d.id);
    expect(ids).toEqual(expect.arrayContaining([scoped, narrow]));
    expect(ids).not.toContain(closed);
    expect(usable.body.meta['status-counts'].matching).toBe(usable.body.meta.pagination['total-count']);
    const none = await owner.api
      .get(`/api/v2/organizations/${org}/agent-pools?filter%5Ballowed_workspaces%5D%5Bname%5D=nope`)
      .expect(200);
    expect(none.body.data).toEqual([]);
  });

  it('searches, sorts and pages pools with status counts', async () => {
    const org2 = await createOrganization(owner);
    for (const name of ['beta', 'alpha', 'gamma-x', 'delta-x']) await createPool(owner, org2, name);
    const list = (query: string) =>
      owner.api.get(`/api/v2/organizations/${org2}/agent-pools${query}`).expect(200);
    const names = (res: { body: { data: { attributes: { name: string } }[] } }) =>
      res.body.data.map((d) => d.attributes.name);
    expect(names(await list('?sort=name'))).toEqual(['alpha', 'beta', 'delta-x', 'gamma-x']);
    expect(names(await list('?sort=-name'))).toEqual(['gamma-x', 'delta-x', 'beta', 'alpha']);
    expect(names(await list(''))).toEqual(['beta', 'alpha', 'gamma-x', 'delta-x']);
    expect(names(await list('?sort=-created-at'))).toEqual(['delta-x', 'gamma-x', 'alpha', 'beta']);
    const searched = await list('?q=X&sort=name');
    expect(names(searched)).toEqual(['delta-x', 'gamma-x']);
    expect(searched.body.meta['status-counts']).toEqual({ total: 4, matching: 2 });
    const paged = await list('?sort=name&page%5Bsize%5D=3&page%5Bnumber%5D=2');
    expect(names(paged)).toEqual(['gamma-x']);
    expectPagination(paged.body, { current: 2, size: 3, prev: 1, next: null, pages: 2, count: 4 });
    const bad = await owner.api.get(`/api/v2/organizations/${org2}/agent-pools?sort=size`).expect(400);
    expect(bad.body.errors[0].source).toEqual({ parameter: 'sort' });
  });

  it('updates name, scope and allowed workspaces', async () => {
    const ws = await createWorkspace(owner, org);
    const id = await createPool(owner, org, unique('upd'));
    const res = await owner.api
      .patch(`/api/v2/agent-pools/${id}`, {
        data: {
          type: 'agent-pools',
          attributes: { name: 'renamed-pool', 'organization-scoped': false },
          relationships: { 'allowed-workspaces': { data: [{ type: 'workspaces', id: ws }] } },
        },
      })
      .expect(200);
    expect(res.body.data.attributes).toMatchObject({ name: 'renamed-pool', 'organization-scoped': false });
    expect(res.body.data.relationships['allowed-workspaces'].data).toEqual([{ type: 'workspaces', id: ws }]);
    const foreign = await owner.api
      .patch(`/api/v2/agent-pools/${id}`, {
        data: {
          type: 'agent-pools',
          relationships: {
            'allowed-workspaces': { data: [{ type: 'workspaces', id: 'ws-doesnotexist0000' }] },
          },
        },
      })
      .expect(422);
    expect(foreign.body.errors[0]).toMatchObject({
      detail: 'Workspace not found',
      source: { pointer: '/data/relationships/allowed-workspaces/data/0/id' },
    });
  });

  it('deletes a pool, its tokens with it; a second delete is a 404', async () => {
    const id = await createPool(owner, org, unique('gone'));
    const token = await createAgentToken(owner, id);
    await owner.api.delete(`/api/v2/agent-pools/${id}`).expect(204);
    await owner.api.delete(`/api/v2/agent-pools/${id}`).expect(404);
    await owner.api.get(`/api/v2/authentication-tokens/${token.id}`).expect(404);
  });

  it('lets members who manage workspaces read pools and agents, and only owners change them', async () => {
    const id = await createPool(owner, org, unique('perm'));
    const token = await createAgentToken(owner, id);
    const agentId = await registerAgent(t, token.secret);
    const manager = await memberWith(t, admin, owner, org, ['manage-workspaces']);
    const reader = await memberWith(t, admin, owner, org, ['read-workspaces']);
    const stranger = await createUser(t, admin);
    await manager.api.get(`/api/v2/organizations/${org}/agent-pools`).expect(200);
    await manager.api.get(`/api/v2/agent-pools/${id}`).expect(200);
    await manager.api.get(`/api/v2/agent-pools/${id}/agents`).expect(200);
    await manager.api.get(`/api/v2/agents/${agentId}`).expect(200);
    await manager.api
      .post(`/api/v2/organizations/${org}/agent-pools`, poolBody({ name: unique('m') }))
      .expect(404);
    await manager.api.patch(`/api/v2/agent-pools/${id}`, poolBody({ name: 'x' })).expect(404);
    await manager.api.delete(`/api/v2/agent-pools/${id}`).expect(404);
    for (const actor of [reader, stranger]) {
      await actor.api.get(`/api/v2/organizations/${org}/agent-pools`).expect(404);
      await actor.api.get(`/api/v2/agent-pools/${id}`).expect(404);
      await actor.api.get(`/api/v2/agent-pools/${id}/agents`).expect(404);
      await actor.api.get(`/api/v2/agents/${agentId}`).expect(404);
    }
  });

  it('keeps a live agent (412) and lists agents seen since a time', async () => {
    const id = await createPool(owner, org, unique('agents'));
    const token = await createAgentToken(owner, id);
    const agentId = await registerAgent(t, token.secret);
    const res = await owner.api.delete(`/api/v2/agents/${agentId}`).expect(412);
    expect(res.body.errors).toEqual([
      {
        status: '412',
        title: 'precondition failed',
        detail: 'Agent is idle; only unknown, errored or exited agents can be deleted',
      },
    ]);
    const future = encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString());
    const later = await owner.api.get(
      `/api/v2/agent-pools/${id}/agents?filter%5Blast-ping-since%5D=${future}`,
    );
    expect(later.status).toBe(200);
    expect(later.body.data).toEqual([]);
    const past = encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString());
    const recent = await owner.api.get(
      `/api/v2/agent-pools/${id}/agents?filter%5Blast-ping-since%5D=${past}`,
    );
    expect(recent.body.data.map((d: { id: string }) => d.id)).toEqual([agentId]);
    await owner.api.get(`/api/v2/agent-pools/${id}/agents?filter%5Blast-ping-since%5D=yesterday`).expect(400);
  });
});

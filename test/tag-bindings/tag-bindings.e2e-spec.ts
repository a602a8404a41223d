import { DataSource } from 'typeorm';
import {
  Actor,
  createOrganization,
  createWorkspace,
  expectPagination,
  idOf,
  ISO_MILLIS,
  tagBindingList,
  unique,
  startWithOwnedOrganization,
} from '../helpers/fixtures';
import { TestApp } from '../helpers/test-app';

interface Item {
  id: string;
  type: string;
  attributes: { key: string; value: string; 'created-at'?: string };
  links?: Record<string, string>;
}

const pairs = (items: Item[]) => Object.fromEntries(items.map((i) => [i.attributes.key, i.attributes.value]));
const keyed = (items: Item[]) => Object.fromEntries(items.map((i) => [i.attributes.key, i]));

describe('tag bindings of projects and workspaces', () => {
  let t: TestApp;
  let owner: Actor;
  let org: string;

  beforeAll(async () => {
    ({ t, owner, org } = await startWithOwnedOrganization());
  });
  afterAll(() => t.close());

  const createProjectWith = (tags: Record<string, string>, name = unique('prj')) =>
    owner.api.post(`/api/v2/organizations/${org}/projects`, {
      data: {
        type: 'projects',
        attributes: { name },
        relationships: { 'tag-bindings': { data: tagBindingList(tags) } },
      },
    });

  const createWorkspaceWith = (tags: Record<string, string>, projectId: string, name = unique('ws')) =>
    owner.api.post(`/api/v2/organizations/${org}/workspaces`, {
      data: {
        type: 'workspaces',
        attributes: { name },
        relationships: {
          project: { data: { type: 'projects', id: projectId } },
          'tag-bindings': { data: tagBindingList(tags) },
        },
      },
    });

  const rowsOf = async (column: 'project_id' | 'workspace_id', id: string): Promise<number> =>
    (await t.app.get(DataSource).query(`SELECT id FROM tag_bindings WHERE ${column} = ?`, [id])).length;

  const bindingsOf = async (path: string): Promise<Item[]> =>
    (await owner.api.get(`${path}/tag-bindings`).expect(200)).body.data;

  describe('on projects', () => {
    it('sets bindings with the project create relationship and lists them with their full shape', async () => {
      const created = await createProjectWith({ env: 'prod', team: 'platform' }).expect(201);
      const id = created.body.data.id;
      expect(created.body.data.relationships).toEqual({
        organization: { data: { id: org, type: 'organizations' } },
        'tag-bindings': { links: { related: `/api/v2/projects/${id}/tag-bindings` } },
        'effective-tag-bindings': { links: { related: `/api/v2/projects/${id}/effective-tag-bindings` } },
      });
      const res = await owner.api.get(`/api/v2/projects/${id}/tag-bindings`).expect(200);
      expect(res.body.data).toEqual([
        {
          id: expect.stringMatching(idOf('tb')),
          type: 'tag-bindings',
          attributes: { key: 'env', value: 'prod', 'created-at': expect.stringMatching(ISO_MILLIS) },
        },
        {
          id: expect.stringMatching(idOf('tb')),
          type: 'tag-bindings',
          attributes: { key: 'team', value: 'platform', 'created-at': expect.stringMatching(ISO_MILLIS) },
        },
      ]);
      expectPagination(res.body, { current: 1, size: 20, prev: null, next: null, pages: 1, count: 2 });
      expect(res.body.links.target).toBe(`/api/v2/projects/${id}`);
      const shown = await owner.api.get(`/api/v2/projects/${id}`).expect(200);
      expect(shown.body.data.relationships).toEqual(created.body.data.relationships);
    });

    it('PATCH …/tag-bindings adds new keys and updates existing ones, keeping the rest and their ids', async () => {
      const id = (await createProjectWith({ env: 'dev', team: 'a' }).expect(201)).body.data.id;
      const before = keyed(await bindingsOf(`/api/v2/projects/${id}`));
      const res = await owner.api
        .patch(`/api/v2/projects/${id}/tag-bindings`, { data: tagBindingList({ env: 'prod', region: 'eu' }) })
        .expect(200);
      expect(pairs(res.body.data)).toEqual({ env: 'prod', region: 'eu', team: 'a' });
      expect(res.body.data.map((i: Item) => i.attributes.key)).toEqual(['env', 'region', 'team']);
      const after = keyed(res.body.data);
      expect(after.env.id).toBe(before.env.id);
      expect(after.env.attributes['created-at']).toBe(before.env.attributes['created-at']);
      expect(after.team).toEqual(before.team);
      expect(after.region).toEqual({
        id: expect.stringMatching(idOf('tb')),
        type: 'tag-bindings',
        attributes: { key: 'region', value: 'eu', 'created-at': expect.stringMatching(ISO_MILLIS) },
      });
      expectPagination(res.body, { current: 1, size: 20, prev: null, next: null, pages: 1, count: 3 });
      expect(await bindingsOf(`/api/v2/projects/${id}`)).toEqual(res.body.data);
    });

    it('matches keys ignoring case when it updates, and stores an absent value as empty', async () => {
      const id = (await createProjectWith({ env: 'dev' }).expect(201)).body.data.id;
      const res = await owner.api
        .patch(`/api/v2/projects/${id}/tag-bindings`, {
          data: [
            { type: 'tag-bindings', attributes: { key: 'ENV', value: 'prod' } },
            { type: 'tag-bindings', attributes: { key: 'key-only' } },
          ],
        })
        .expect(200);
      expect(pairs(res.body.data)).toEqual({ ENV: 'prod', 'key-only': '' });
    });

    it('replaces the whole list through the project update relationship, and an empty list clears it', async () => {
      const id = (await createProjectWith({ a: '1', b: '2' }).expect(201)).body.data.id;
      const patch = (tags: Record<string, string>) =>
        owner.api.patch(`/api/v2/projects/${id}`, {
          data: { type: 'projects', relationships: { 'tag-bindings': { data: tagBindingList(tags) } } },
        });
      await patch({ b: '20', c: '3' }).expect(200);
      expect(pairs(await bindingsOf(`/api/v2/projects/${id}`))).toEqual({ b: '20', c: '3' });
      await owner.api
        .patch(`/api/v2/projects/${id}`, { data: { type: 'projects', attributes: { description: 'kept' } } })
        .expect(200);
      expect(pairs(await bindingsOf(`/api/v2/projects/${id}`))).toEqual({ b: '20', c: '3' });
      await patch({}).expect(200);
      expect(await bindingsOf(`/api/v2/projects/${id}`)).toEqual([]);
    });

    it('answers the effective bindings of a project: its own, typed effective-tag-bindings', async () => {
      const id = (await createProjectWith({ env: 'prod' }).expect(201)).body.data.id;
      const own = await bindingsOf(`/api/v2/projects/${id}`);
      const res = await owner.api.get(`/api/v2/projects/${id}/effective-tag-bindings`).expect(200);
      expect(res.body.data).toEqual([
        { id: own[0].id, type: 'effective-tag-bindings', attributes: { key: 'env', value: 'prod' } },
      ]);
      expectPagination(res.body, { current: 1, size: 20, prev: null, next: null, pages: 1, count: 1 });
    });

    it('pages the bindings of a project', async () => {
      const tags = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, `v${i}`]));
      const id = (await createProjectWith(tags).expect(201)).body.data.id;
      const res = await owner.api
        .get(`/api/v2/projects/${id}/tag-bindings?page[size]=3&page[number]=4`)
        .expect(200);
      expect(pairs(res.body.data)).toEqual({ k9: 'v9' });
      expectPagination(res.body, { current: 4, size: 3, prev: 3, next: null, pages: 4, count: 10 });
    });

    it('refuses an 11th project binding, by create, update or PATCH, storing nothing', async () => {
      const ten = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, 'v']));
      const eleven = { ...ten, k10: 'v' };
      const refused = await createProjectWith(eleven).expect(422);
      expect(refused.body.errors).toEqual([
        {
          status: '422',
          title: 'invalid attribute',
          detail: 'A project can have at most 10 tag bindings',
          source: { pointer: '/data/relationships/tag-bindings' },
        },
      ]);
      const id = (await createProjectWith(ten).expect(201)).body.data.id;
      const patched = await owner.api
        .patch(`/api/v2/projects/${id}/tag-bindings`, { data: tagBindingList({ k0: 'changed', k10: 'v' }) })
        .expect(422);
      expect(patched.body.errors).toEqual([
        {
          status: '422',
          title: 'invalid attribute',
          detail: 'A project can have at most 10 tag bindings',
          source: { pointer: '/data' },
        },
      ]);
      await owner.api
        .patch(`/api/v2/projects/${id}`, {
          data: { type: 'projects', relationships: { 'tag-bindings': { data: tagBindingList(eleven) } } },
        })
        .expect(422);
      expect(pairs(await bindingsOf(`/api/v2/projects/${id}`))).toEqual(ten);
    });
  });

  describe('on workspaces', () => {
    let projectId: string;

    beforeAll(async () => {
      projectId = (await createProjectWith({ env: 'prod', team: 'platform' }).expect(201)).body.data.id;
    });

    it('sets own bindings on create, shows relationship links, and lists only its own', async () => {
      const created = await createWorkspaceWith({ app: 'web' }, projectId).expect(201);
      const ws = created.body.data.id;
      expect(created.body.data.relationships).toEqual({
        organization: { data: { id: org, type: 'organizations' } },
        project: { data: { id: projectId, type: 'projects' } },
        'agent-pool': { data: null },
        'locked-by': { data: null },
        'current-state-version': { data: null },
        'current-run': { data: null },
        'tag-bindings': { links: { related: `/api/v2/workspaces/${ws}/tag-bindings` } },
        'effective-tag-bindings': { links: { related: `/api/v2/workspaces/${ws}/effective-tag-bindings` } },
      });
      const res = await owner.api.get(`/api/v2/workspaces/${ws}/tag-bindings`).expect(200);
      expect(res.body.data).toEqual([
        {
          id: expect.stringMatching(idOf('tb')),
          type: 'tag-bindings',
          attributes: { key: 'app', value: 'web', 'created-at': expect.stringMatching(ISO_MILLIS) },
        },
      ]);
      expect(res.body.links.target).toBe(`/api/v2/workspaces/${ws}`);
      expectPagination(res.body, { current: 1, size: 20, prev: null, next: null, pages: 1, count: 1 });
    });

    it('answers effective bindings: own ones plus inherited ones linking to the project', async () => {
      const ws = (await createWorkspaceWith({ app: 'web', team: 'payments' }, projectId).expect(201)).body
        .data.id;
      const own = keyed(await bindingsOf(`/api/v2/workspaces/${ws}`));
      const inherited = keyed(await bindingsOf(`/api/v2/projects/${projectId}`));
      const res = await owner.api.get(`/api/v2/workspaces/${ws}/effective-tag-bindings`).expect(200);
      expect(res.body.data).toEqual([
        { id: own.app.id, type: 'effective-tag-bindings', attributes: { key: 'app', value: 'web' } },
        {
          id: inherited.env.id,
          type: 'effective-tag-bindings',
          attributes: { key: 'env', value: 'prod' },
          links: { 'inherited-from': `/api/v2/projects/${projectId}` },
        },
        { id: own.team.id, type: 'effective-tag-bindings', attributes: { key: 'team', value: 'payments' } },
      ]);
      expectPagination(res.body, { current: 1, size: 20, prev: null, next: null, pages: 1, count: 3 });
      expect(res.body.links.target).toBe(`/api/v2/workspaces/${ws}`);
    });

    it('reflects changes of the project bindings in the effective bindings', async () => {
      const project = (await createProjectWith({ env: 'dev' }).expect(201)).body.data.id;
      const ws = (await createWorkspaceWith({ app: 'api' }, project).expect(201)).body.data.id;
      const effective = async () =>
        (await owner.api.get(`/api/v2/workspaces/${ws}/effective-tag-bindings`).expect(200)).body.data.map(
          (i: Item) => [i.attributes.key, i.attributes.value, i.links?.['inherited-from'] ?? null],
        );
      expect(await effective()).toEqual([
        ['app', 'api', null],
        ['env', 'dev', `/api/v2/projects/${project}`],
      ]);
      await owner.api
        .patch(`/api/v2/projects/${project}/tag-bindings`, {
          data: tagBindingList({ env: 'prod', owner: 'sre' }),
        })
        .expect(200);
      expect(await effective()).toEqual([
        ['app', 'api', null],
        ['env', 'prod', `/api/v2/projects/${project}`],
        ['owner', 'sre', `/api/v2/projects/${project}`],
      ]);
      await owner.api
        .patch(`/api/v2/projects/${project}`, {
          data: {
            type: 'projects',
            relationships: { 'tag-bindings': { data: tagBindingList({ owner: 'sre' }) } },
          },
        })
        .expect(200);
      expect(await effective()).toEqual([
        ['app', 'api', null],
        ['owner', 'sre', `/api/v2/projects/${project}`],
      ]);
    });

    it('PATCH …/tag-bindings on a workspace is an additive upsert answering every own binding', async () => {
      const ws = (await createWorkspaceWith({ app: 'web', tier: '1' }, projectId).expect(201)).body.data.id;
      const res = await owner.api
        .patch(`/api/v2/workspaces/${ws}/tag-bindings`, { data: tagBindingList({ tier: '2', cost: '42' }) })
        .expect(200);
      expect(res.body.data.map((i: Item) => [i.type, i.attributes.key, i.attributes.value])).toEqual([
        ['tag-bindings', 'app', 'web'],
        ['tag-bindings', 'cost', '42'],
        ['tag-bindings', 'tier', '2'],
      ]);
      expect(await bindingsOf(`/api/v2/workspaces/${ws}`)).toEqual(res.body.data);
    });

    it('replaces the whole list through workspace updates by id and by name', async () => {
      const name = unique('ws');
      const ws = (await createWorkspaceWith({ a: '1', b: '2' }, projectId, name).expect(201)).body.data.id;
      const update = (path: string, tags: Record<string, string>) =>
        owner.api.patch(path, {
          data: { type: 'workspaces', relationships: { 'tag-bindings': { data: tagBindingList(tags) } } },
        });
      await update(`/api/v2/workspaces/${ws}`, { b: '3' }).expect(200);
      expect(pairs(await bindingsOf(`/api/v2/workspaces/${ws}`))).toEqual({ b: '3' });
      await update(`/api/v2/organizations/${org}/workspaces/${name}`, { c: '4' }).expect(200);
      expect(pairs(await bindingsOf(`/api/v2/workspaces/${ws}`))).toEqual({ c: '4' });
      await owner.api
        .patch(`/api/v2/workspaces/${ws}`, { data: { type: 'workspaces', attributes: { description: 'x' } } })
        .expect(200);
      expect(pairs(await bindingsOf(`/api/v2/workspaces/${ws}`))).toEqual({ c: '4' });
    });

    it('allows 10 own bindings besides 10 inherited ones and refuses an 11th own one', async () => {
      const ten = (prefix: string) =>
        Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`${prefix}${i}`, 'v']));
      const project = (await createProjectWith(ten('p')).expect(201)).body.data.id;
      const ws = (await createWorkspaceWith(ten('w'), project).expect(201)).body.data.id;
      const effective = await owner.api.get(`/api/v2/workspaces/${ws}/effective-tag-bindings`).expect(200);
      expectPagination(effective.body, { current: 1, size: 20, prev: null, next: null, pages: 1, count: 20 });
      const res = await owner.api
        .patch(`/api/v2/workspaces/${ws}/tag-bindings`, { data: tagBindingList({ w10: 'v' }) })
        .expect(422);
      expect(res.body.errors).toEqual([
        {
          status: '422',
          title: 'invalid attribute',
          detail: 'A workspace can have at most 10 tag bindings of its own',
          source: { pointer: '/data' },
        },
      ]);
      const refused = await createWorkspaceWith({ ...ten('w'), w10: 'v' }, project).expect(422);
      expect(refused.body.errors[0].source).toEqual({ pointer: '/data/relationships/tag-bindings' });
    });

    it('removes a workspace’s bindings with the workspace', async () => {
      const ws = (await createWorkspaceWith({ gone: 'soon' }, projectId).expect(201)).body.data.id;
      expect(await rowsOf('workspace_id', ws)).toBe(1);
      await owner.api.delete(`/api/v2/workspaces/${ws}`).expect(204);
      await owner.api.get(`/api/v2/workspaces/${ws}/tag-bindings`).expect(404);
      expect(await rowsOf('workspace_id', ws)).toBe(0);
    });
  });

  it('deletes an organization whose projects and workspaces carry bindings', async () => {
    const doomed = await createOrganization(owner);
    const project = (
      await owner.api
        .post(`/api/v2/organizations/${doomed}/projects`, {
          data: {
            type: 'projects',
            attributes: { name: unique('prj') },
            relationships: { 'tag-bindings': { data: tagBindingList({ a: '1' }) } },
          },
        })
        .expect(201)
    ).body.data.id;
    const ws = await createWorkspace(owner, doomed, unique('ws'), project);
    await owner.api
      .patch(`/api/v2/workspaces/${ws}/tag-bindings`, { data: tagBindingList({ b: '2' }) })
      .expect(200);
    await owner.api.delete(`/api/v2/organizations/${doomed}`).expect(204);
    await owner.api.get(`/api/v2/projects/${project}/tag-bindings`).expect(404);
    expect(await rowsOf('project_id', project)).toBe(0);
    expect(await rowsOf('workspace_id', ws)).toBe(0);
  });
});

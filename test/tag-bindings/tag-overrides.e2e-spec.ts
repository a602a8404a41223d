import {
  Actor,
  reserveTagKey,
  tagBindingList,
  unique,
  startWithOwnedOrganization,
} from '../helpers/fixtures';
import { TestApp } from '../helpers/test-app';

interface Item {
  attributes: { key: string; value: string };
  links?: Record<string, string>;
}

/** Effective bindings as `key → [value, inherited-from or null]`. */
type Effective = Record<string, [string, string | null]>;

describe('overriding inherited tag bindings', () => {
  let t: TestApp;
  let owner: Actor;
  let org: string;

  beforeAll(async () => {
    ({ t, owner, org } = await startWithOwnedOrganization());
    await reserveTagKey(owner, org, 'env', true);
    await reserveTagKey(owner, org, 'team', false);
  });
  afterAll(() => t.close());

  const project = async (tags: Record<string, string>): Promise<string> =>
    (
      await owner.api
        .post(`/api/v2/organizations/${org}/projects`, {
          data: {
            type: 'projects',
            attributes: { name: unique('prj') },
            relationships: { 'tag-bindings': { data: tagBindingList(tags) } },
          },
        })
        .expect(201)
    ).body.data.id;

  const createWorkspace = (projectId: string, tags: Record<string, string>, name = unique('ws')) =>
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

  const workspace = async (projectId: string, tags: Record<string, string> = {}): Promise<string> =>
    (await createWorkspace(projectId, tags).expect(201)).body.data.id;

  const merge = (ws: string, tags: Record<string, string>) =>
    owner.api.patch(`/api/v2/workspaces/${ws}/tag-bindings`, { data: tagBindingList(tags) });

  const replace = (ws: string, tags: Record<string, string>) =>
    owner.api.patch(`/api/v2/workspaces/${ws}`, {
      data: { type: 'workspaces', relationships: { 'tag-bindings': { data: tagBindingList(tags) } } },
    });

  const move = (ws: string, projectId: string, tags?: Record<string, string>) =>
    owner.api.patch(`/api/v2/workspaces/${ws}`, {
      data: {
        type: 'workspaces',
        relationships: {
          project: { data: { type: 'projects', id: projectId } },
          ...(tags && { 'tag-bindings': { data: tagBindingList(tags) } }),
        },
      },
    });

  const own = async (ws: string): Promise<Record<string, string>> =>
    Object.fromEntries(
      (await owner.api.get(`/api/v2/workspaces/${ws}/tag-bindings`).expect(200)).body.data.map((i: Item) => [
        i.attributes.key,
        i.attributes.value,
      ]),
    );

  const effective = async (ws: string): Promise<Effective> =>
    Object.fromEntries(
      (await owner.api.get(`/api/v2/workspaces/${ws}/effective-tag-bindings`).expect(200)).body.data.map(
        (i: Item) => [i.attributes.key, [i.attributes.value, i.links?.['inherited-from'] ?? null]],
      ),
    );

  const refusal = (key: string, pointer: string) => ({
    errors: [
      {
        status: '422',
        title: 'invalid attribute',
        detail: `Key ${key} is reserved with overrides disabled: the workspace cannot override the value it inherits from its project`,
        source: { pointer },
      },
    ],
  });

  it('lets a workspace override an inherited key that is not reserved', async () => {
    const p = await project({ region: 'eu' });
    const ws = await workspace(p);
    await merge(ws, { region: 'us' }).expect(200);
    expect(await effective(ws)).toEqual({ region: ['us', null] });
  });

  it('lets a workspace override a reserved key whose overrides are allowed', async () => {
    const p = await project({ team: 'platform' });
    const ws = await workspace(p);
    await merge(ws, { team: 'payments' }).expect(200);
    expect(await effective(ws)).toEqual({ team: ['payments', null] });
  });

  it('lets a workspace bind a locked reserved key its project does not bind', async () => {
    const p = await project({ team: 'platform' });
    const ws = await workspace(p, { env: 'dev' });
    expect(await effective(ws)).toEqual({ env: ['dev', null], team: ['platform', `/api/v2/projects/${p}`] });
  });

  it('refuses a PATCH that overrides a locked key, naming it and storing nothing of the request', async () => {
    const p = await project({ env: 'prod' });
    const ws = await workspace(p, { app: 'web' });
    const res = await merge(ws, { app: 'api', region: 'eu', env: 'dev' }).expect(422);
    expect(res.body).toEqual(refusal('env', '/data/2/attributes/key'));
    expect(await own(ws)).toEqual({ app: 'web' });
    expect(await effective(ws)).toEqual({ app: ['web', null], env: ['prod', `/api/v2/projects/${p}`] });
  });

  it('refuses an override that differs only in the case of the key', async () => {
    const p = await project({ env: 'prod' });
    const ws = await workspace(p);
    const res = await merge(ws, { ENV: 'dev' }).expect(422);
    expect(res.body).toEqual(refusal('ENV', '/data/0/attributes/key'));
  });

  it('refuses re-stating the inherited value as an own binding too', async () => {
    const p = await project({ env: 'prod' });
    const ws = await workspace(p);
    await merge(ws, { env: 'prod' }).expect(422);
  });

  it('refuses a workspace create that overrides a locked key, creating no workspace', async () => {
    const p = await project({ env: 'prod' });
    const name = unique('ws');
    const res = await createWorkspace(p, { app: 'web', env: 'dev' }, name).expect(422);
    expect(res.body).toEqual(refusal('env', '/data/relationships/tag-bindings/data/1/attributes/key'));
    await owner.api.get(`/api/v2/organizations/${org}/workspaces/${name}`).expect(404);
  });

  it('refuses a workspace update that overrides a locked key, leaving its attributes unchanged', async () => {
    const p = await project({ env: 'prod' });
    const ws = await workspace(p, { app: 'web' });
    const before = (await owner.api.get(`/api/v2/workspaces/${ws}`).expect(200)).body.data;
    const res = await owner.api
      .patch(`/api/v2/workspaces/${ws}`, {
        data: {
          type: 'workspaces',
          attributes: { name: unique('renamed'), description: 'changed' },
          relationships: { 'tag-bindings': { data: tagBindingList({ env: 'dev' }) } },
        },
      })
      .expect(422);
    expect(res.body).toEqual(refusal('env', '/data/relationships/tag-bindings/data/0/attributes/key'));
    const after = (await owner.api.get(`/api/v2/workspaces/${ws}`).expect(200)).body.data;
    expect(after).toEqual(before);
    expect(await own(ws)).toEqual({ app: 'web' });
  });

  it('keeps an override made before disable-overrides was turned on, and guards it from then on', async () => {
    const keyId = await reserveTagKey(owner, org, 'tier', false);
    const p = await project({ tier: 'gold' });
    const ws = await workspace(p, { tier: 'silver', app: 'web' });
    await owner.api
      .patch(`/api/v2/reserved-tag-keys/${keyId}`, {
        data: { type: 'reserved-tag-keys', attributes: { key: 'tier', 'disable-overrides': true } },
      })
      .expect(200);

    expect(await effective(ws)).toEqual({ app: ['web', null], tier: ['silver', null] });
    await merge(ws, { app: 'api' }).expect(200);
    await replace(ws, { tier: 'silver', app: 'api', extra: 'x' }).expect(200);
    expect(await own(ws)).toEqual({ tier: 'silver', app: 'api', extra: 'x' });

    expect((await merge(ws, { tier: 'bronze' }).expect(422)).body).toEqual(
      refusal('tier', '/data/0/attributes/key'),
    );
    await replace(ws, { app: 'api' }).expect(200);
    expect(await effective(ws)).toEqual({ app: ['api', null], tier: ['gold', `/api/v2/projects/${p}`] });
    await merge(ws, { tier: 'silver' }).expect(422);
  });

  it('lifts the restriction when the reserved key is deleted or its overrides are allowed again', async () => {
    const keyId = await reserveTagKey(owner, org, 'stage', true);
    const p = await project({ stage: 'live' });
    const ws = await workspace(p);
    await merge(ws, { stage: 'test' }).expect(422);
    await owner.api
      .patch(`/api/v2/reserved-tags/${keyId}`, {
        data: { type: 'reserved-tag-keys', attributes: { key: 'stage', 'disable-overrides': false } },
      })
      .expect(200);
    await merge(ws, { stage: 'test' }).expect(200);

    const otherKey = await reserveTagKey(owner, org, 'zone', true);
    const p2 = await project({ zone: 'a' });
    const ws2 = await workspace(p2);
    await merge(ws2, { zone: 'b' }).expect(422);
    await owner.api.delete(`/api/v2/reserved-tag-keys/${otherKey}`).expect(204);
    await merge(ws2, { zone: 'b' }).expect(200);
    expect(await effective(ws2)).toEqual({ zone: ['b', null] });
  });

  it('lets a project add a key its workspaces already bind: their bindings stay overrides', async () => {
    const p = await project({});
    const ws = await workspace(p, { env: 'dev' });
    await owner.api
      .patch(`/api/v2/projects/${p}/tag-bindings`, { data: tagBindingList({ env: 'prod' }) })
      .expect(200);
    expect(await effective(ws)).toEqual({ env: ['dev', null] });
  });

  describe('moving a workspace to another project', () => {
    it('changes what it inherits', async () => {
      const from = await project({ region: 'eu', owner: 'a' });
      const to = await project({ region: 'us' });
      const ws = await workspace(from, { app: 'web' });
      await move(ws, to).expect(200);
      expect(await effective(ws)).toEqual({ app: ['web', null], region: ['us', `/api/v2/projects/${to}`] });
    });

    it('is refused when the new project binds a locked key the workspace binds, and nothing moves', async () => {
      const from = await project({});
      const to = await project({ env: 'prod' });
      const ws = await workspace(from, { env: 'dev' });
      const res = await move(ws, to).expect(422);
      expect(res.body).toEqual(refusal('env', '/data/relationships/project'));
      const shown = await owner.api.get(`/api/v2/workspaces/${ws}`).expect(200);
      expect(shown.body.data.relationships.project.data).toEqual({ id: from, type: 'projects' });
      expect(await effective(ws)).toEqual({ env: ['dev', null] });
    });

    it('refuses carrying an override grandfathered in the old project into a new one', async () => {
      const keyId = await reserveTagKey(owner, org, 'cost', false);
      const from = await project({ cost: '1' });
      const to = await project({ cost: '2' });
      const ws = await workspace(from, { cost: '3' });
      await owner.api
        .patch(`/api/v2/reserved-tag-keys/${keyId}`, {
          data: { type: 'reserved-tag-keys', attributes: { key: 'cost', 'disable-overrides': true } },
        })
        .expect(200);
      await move(ws, to).expect(422);
      await move(ws, from).expect(200);
    });

    it('is allowed when the same request drops the conflicting binding', async () => {
      const from = await project({});
      const to = await project({ env: 'prod' });
      const ws = await workspace(from, { env: 'dev', app: 'web' });
      await move(ws, to, { app: 'web' }).expect(200);
      expect(await effective(ws)).toEqual({ app: ['web', null], env: ['prod', `/api/v2/projects/${to}`] });
    });

    it('names the binding in the request when the same request keeps the conflict', async () => {
      const from = await project({});
      const to = await project({ env: 'prod' });
      const ws = await workspace(from);
      const res = await move(ws, to, { app: 'web', env: 'dev' }).expect(422);
      expect(res.body).toEqual(refusal('env', '/data/relationships/tag-bindings/data/1/attributes/key'));
    });
  });
});

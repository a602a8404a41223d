import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createProject,
  createUser,
  createWorkspace,
  tagBindingList,
  unique,
} from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';

describe('tag binding validation', () => {
  let t: TestApp;
  let owner: Actor;
  let org: string;
  let projectId: string;
  let ws: string;

  beforeAll(async () => {
    t = await startApp();
    owner = await createUser(t, await bootstrapAdmin(t));
    org = await createOrganization(owner);
    projectId = await createProject(owner, org);
    ws = await createWorkspace(owner, org, unique('ws'), projectId);
  });
  afterAll(() => t.close());

  const bindingsOf = async (path: string): Promise<unknown[]> =>
    (await owner.api.get(`${path}/tag-bindings`).expect(200)).body.data;

  const pairs = (items: { attributes: { key: string; value: string } }[]) =>
    Object.fromEntries(items.map((i) => [i.attributes.key, i.attributes.value]));

  const invalidCases: [string, unknown, string, string][] = [
    ['a key with a space', { key: 'cost center', value: 'x' }, 'Key is invalid', 'key'],
    ['a key with a slash', { key: 'a/b', value: 'x' }, 'Key is invalid', 'key'],
    ['a key of 129 characters', { key: 'k'.repeat(129), value: 'x' }, 'Key is invalid', 'key'],
    ['a missing key', { value: 'x' }, "Key can't be blank", 'key'],
    ['a key starting with hc:', { key: 'hc:owner', value: 'x' }, 'Key cannot begin with hc: or hcp:', 'key'],
    [
      'a key starting with HCP:',
      { key: 'HCP:owner', value: 'x' },
      'Key cannot begin with hc: or hcp:',
      'key',
    ],
    [
      'a value of 257 characters',
      { key: 'k', value: 'v'.repeat(257) },
      'Value is too long (maximum is 256 characters)',
      'value',
    ],
    ['a value that is not a string', { key: 'k', value: 7 }, 'Value must be a string', 'value'],
  ];

  it.each(invalidCases)('refuses %s in a PATCH body, pointing at it', async (_, attributes, detail, attr) => {
    for (const path of [`/api/v2/projects/${projectId}`, `/api/v2/workspaces/${ws}`]) {
      const res = await owner.api
        .patch(`${path}/tag-bindings`, {
          data: [
            { type: 'tag-bindings', attributes: { key: 'fine', value: 'ok' } },
            { type: 'tag-bindings', attributes },
          ],
        })
        .expect(422);
      expect(res.body.errors).toEqual([
        {
          status: '422',
          title: 'invalid attribute',
          detail,
          source: { pointer: `/data/1/attributes/${attr}` },
        },
      ]);
      expect(await bindingsOf(path)).toEqual([]);
    }
  });

  it.each(invalidCases)(
    'refuses %s in the tag-bindings relationship',
    async (_, attributes, detail, attr) => {
      const res = await owner.api
        .post(`/api/v2/organizations/${org}/projects`, {
          data: {
            type: 'projects',
            attributes: { name: unique('prj') },
            relationships: { 'tag-bindings': { data: [{ type: 'tag-bindings', attributes }] } },
          },
        })
        .expect(422);
      expect(res.body.errors).toEqual([
        {
          status: '422',
          title: 'invalid attribute',
          detail,
          source: { pointer: `/data/relationships/tag-bindings/data/0/attributes/${attr}` },
        },
      ]);
    },
  );

  it('accepts the whole allowed key alphabet and a 256-character value', async () => {
    const key = 'Az09_.=+-@:'.padEnd(128, 'x');
    const res = await owner.api
      .patch(`/api/v2/projects/${projectId}/tag-bindings`, {
        data: tagBindingList({ [key]: 'v'.repeat(256), 'hcx:fine': '' }),
      })
      .expect(200);
    expect(pairs(res.body.data)).toEqual({ [key]: 'v'.repeat(256), 'hcx:fine': '' });
  });

  it('refuses a key given twice in one request, ignoring case', async () => {
    const res = await owner.api
      .patch(`/api/v2/workspaces/${ws}/tag-bindings`, { data: tagBindingList({ dup: '1', DUP: '2' }) })
      .expect(422);
    expect(res.body.errors).toEqual([
      {
        status: '422',
        title: 'invalid attribute',
        detail: 'Key DUP is given more than once',
        source: { pointer: '/data/1/attributes/key' },
      },
    ]);
  });

  it('refuses a wrong item type, a non-array data and a relationship without data', async () => {
    const wrongType = await owner.api
      .patch(`/api/v2/workspaces/${ws}/tag-bindings`, {
        data: [{ type: 'tags', attributes: { key: 'a' } }],
      })
      .expect(422);
    expect(wrongType.body.errors[0]).toMatchObject({
      detail: 'Type must be tag-bindings',
      source: { pointer: '/data/0/type' },
    });
    const notArray = await owner.api
      .patch(`/api/v2/workspaces/${ws}/tag-bindings`, {
        data: { type: 'tag-bindings', attributes: { key: 'a' } },
      })
      .expect(422);
    expect(notArray.body.errors[0]).toMatchObject({ source: { pointer: '/data' } });
    const noData = await owner.api
      .patch(`/api/v2/workspaces/${ws}`, {
        data: { type: 'workspaces', relationships: { 'tag-bindings': {} } },
      })
      .expect(422);
    expect(noData.body.errors[0]).toMatchObject({
      source: { pointer: '/data/relationships/tag-bindings' },
    });
  });
});

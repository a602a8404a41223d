import {
  Actor,
  createOrganization,
  createProject,
  createUser,
  expectPagination,
  startWithOwnedOrganization,
  tagBindingList,
  unique,
} from '../helpers/fixtures';
import { errorsOf, projectShape, workspaceShape } from '../helpers/shapes';
import { TestApp } from '../helpers/test-app';
import { createRun, uploadedVersion } from '../runs/run-fixtures';

jest.setTimeout(60_000);

/**
 * The list filters and `include` values the real service's official Go client sends to project and
 * workspace routes (`ProjectListOptions`, `WorkspaceListOptions`, `WSIncludeOpt`): each is applied,
 * and a filter a list does not support is refused rather than ignored.
 */
describe('project and workspace lists, as the official client queries them', () => {
  let t: TestApp;
  let admin: Actor;
  let owner: Actor;
  let org: string;
  let platform: string;
  let data: string;

  const names = (res: { body: { data: { attributes: { name: string } }[] } }) =>
    res.body.data.map((x) => x.attributes.name);

  const createProjectWith = (name: string, tags: Record<string, string>) =>
    owner.api
      .post(`/api/v2/organizations/${org}/projects`, {
        data: {
          type: 'projects',
          attributes: { name },
          relationships: { 'tag-bindings': { data: tagBindingList(tags) } },
        },
      })
      .expect(201);
  const createWorkspaceWith = (name: string, projectId: string, tags: Record<string, string>) =>
    owner.api
      .post(`/api/v2/organizations/${org}/workspaces`, {
        data: {
          type: 'workspaces',
          attributes: { name },
          relationships: {
            project: { data: { type: 'projects', id: projectId } },
            'tag-bindings': { data: tagBindingList(tags) },
          },
        },
      })
      .expect(201);

  beforeAll(async () => {
    ({ t, admin, owner, org } = await startWithOwnedOrganization());
    platform = (await createProjectWith('platform', { env: 'prod', team: 'core' })).body.data.id;
    data = (await createProjectWith('data-lake', { env: 'dev' })).body.data.id;
    await createWorkspaceWith('network', platform, {});
    await createWorkspaceWith('cluster', platform, { env: 'staging' });
    await createWorkspaceWith('warehouse', data, { Tier: 'gold' });
  });
  afterAll(() => t.close());

  describe('projects', () => {
    it('filter[names] keeps the projects with any of the exact names', async () => {
      const res = await owner.api
        .get(`/api/v2/organizations/${org}/projects?filter[names]=platform,data-lake,nope`)
        .expect(200);
      expect(res.body.data).toEqual([
        projectShape(data, org, { name: 'data-lake', workspaceCount: 1 }),
        projectShape(platform, org, { name: 'platform', workspaceCount: 2 }),
      ]);
      expectPagination(res.body, { current: 1, size: 20, prev: null, next: null, pages: 1, count: 2 });
      const none = await owner.api
        .get(`/api/v2/organizations/${org}/projects?filter[names]=plat`)
        .expect(200);
      expect(none.body.data).toEqual([]);
    });

    it('q searches names by substring', async () => {
      const res = await owner.api.get(`/api/v2/organizations/${org}/projects?q=lake`).expect(200);
      expect(names(res)).toEqual(['data-lake']);
    });

    it('filter[tagged] keeps projects bound to every key (and value, when given)', async () => {
      const path = `/api/v2/organizations/${org}/projects`;
      const env = await owner.api
        .get(`${path}?filter[tagged][0][key]=ENV&filter[tagged][0][value]=`)
        .expect(200);
      expect(names(env)).toEqual(['data-lake', 'platform']);
      const prod = await owner.api
        .get(`${path}?filter[tagged][0][key]=env&filter[tagged][0][value]=prod`)
        .expect(200);
      expect(names(prod)).toEqual(['platform']);
      const both = await owner.api
        .get(`${path}?filter[tagged][0][key]=env&filter[tagged][1][key]=team&filter[tagged][1][value]=core`)
        .expect(200);
      expect(names(both)).toEqual(['platform']);
      const missing = await owner.api
        .get(`${path}?filter[tagged][0][key]=team&filter[tagged][0][value]=x`)
        .expect(200);
      expect(missing.body.data).toEqual([]);
    });

    it('include=effective_tag_bindings links and includes each project’s bindings', async () => {
      const res = await owner.api
        .get(`/api/v2/organizations/${org}/projects?filter[names]=platform&include=effective_tag_bindings`)
        .expect(200);
      const [env, team] = res.body.included;
      expect(res.body.included).toEqual([
        {
          id: expect.stringMatching(/^tb-/),
          type: 'effective-tag-bindings',
          attributes: { key: 'env', value: 'prod' },
        },
        {
          id: expect.stringMatching(/^tb-/),
          type: 'effective-tag-bindings',
          attributes: { key: 'team', value: 'core' },
        },
      ]);
      const shape = projectShape(platform, org, { name: 'platform', workspaceCount: 2 });
      expect(res.body.data).toEqual([
        {
          ...shape,
          relationships: {
            ...shape.relationships,
            'effective-tag-bindings': {
              links: { related: `/api/v2/projects/${platform}/effective-tag-bindings` },
              data: [
                { id: env.id, type: 'effective-tag-bindings' },
                { id: team.id, type: 'effective-tag-bindings' },
              ],
            },
          },
        },
      ]);
      const shown = await owner.api
        .get(`/api/v2/projects/${platform}?include=effective_tag_bindings`)
        .expect(200);
      expect(shown.body).toEqual({ data: res.body.data[0], included: res.body.included });
    });

    it('refuses a filter it does not support with a 400 naming it', async () => {
      const res = await owner.api.get(`/api/v2/organizations/${org}/projects?filter[color]=red`).expect(400);
      expect(res.body).toEqual(
        errorsOf(400, {
          detail: 'filter[color] is not a filter this list supports',
          parameter: 'filter[color]',
        }),
      );
      const keyless = await owner.api
        .get(`/api/v2/organizations/${org}/projects?filter[tagged][0][value]=prod`)
        .expect(400);
      expect(keyless.body).toEqual(
        errorsOf(400, { detail: 'filter[tagged][0][key] is required', parameter: 'filter[tagged][0][key]' }),
      );
    });

    it('answers 404 for an organization the caller is not in', async () => {
      const outsider = await createUser(t, admin);
      await createOrganization(outsider);
      await outsider.api.get(`/api/v2/organizations/${org}/projects?filter[names]=platform`).expect(404);
      await outsider.api.get(`/api/v2/projects/${platform}?include=effective_tag_bindings`).expect(404);
    });
  });

  describe('workspaces', () => {
    const list = (query: string) =>
      owner.api.get(`/api/v2/organizations/${org}/workspaces?${query}`).expect(200);

    it('filter[tagged] matches effective bindings: own ones, and the project’s unless overridden', async () => {
      expect(names(await list('filter[tagged][0][key]=env'))).toEqual(['cluster', 'network', 'warehouse']);
      expect(names(await list('filter[tagged][0][key]=env&filter[tagged][0][value]=prod'))).toEqual([
        'network',
      ]);
      expect(names(await list('filter[tagged][0][key]=env&filter[tagged][0][value]=staging'))).toEqual([
        'cluster',
      ]);
      expect(names(await list('filter[tagged][0][key]=tier&filter[tagged][0][value]=gold'))).toEqual([
        'warehouse',
      ]);
      const both = await list(
        'filter[tagged][0][key]=team&filter[tagged][0][value]=core&filter[tagged][1][key]=env&filter[tagged][1][value]=staging',
      );
      expect(names(both)).toEqual(['cluster']);
      expectPagination(both.body, { current: 1, size: 20, prev: null, next: null, pages: 1, count: 1 });
    });

    it('refuses a filter it does not support with a 400 naming it', async () => {
      const res = await owner.api
        .get(`/api/v2/organizations/${org}/workspaces?filter[current-run][status]=applied`)
        .expect(400);
      expect(res.body).toEqual(
        errorsOf(400, {
          detail: 'filter[current-run][status] is not a filter this list supports',
          parameter: 'filter[current-run][status]',
        }),
      );
    });

    it('include=effective_tag_bindings links and includes own and inherited bindings', async () => {
      const cluster = (await list('search[name]=cluster')).body.data[0];
      const res = await owner.api
        .get(`/api/v2/workspaces/${cluster.id}?include=effective_tag_bindings`)
        .expect(200);
      expect(res.body.included).toEqual([
        {
          id: expect.stringMatching(/^tb-/),
          type: 'effective-tag-bindings',
          attributes: { key: 'env', value: 'staging' },
        },
        {
          id: expect.stringMatching(/^tb-/),
          type: 'effective-tag-bindings',
          attributes: { key: 'team', value: 'core' },
          links: { 'inherited-from': `/api/v2/projects/${platform}` },
        },
      ]);
      expect(res.body.data.relationships['effective-tag-bindings']).toEqual({
        links: { related: `/api/v2/workspaces/${cluster.id}/effective-tag-bindings` },
        data: res.body.included.map((b: { id: string }) => ({ id: b.id, type: 'effective-tag-bindings' })),
      });
    });

    it('include=locked_by includes the user or the run holding the lock; current_run the workspace’s current run', async () => {
      const project = await createProject(owner, org);
      const ws = (await createWorkspaceWith(unique('runs'), project, {})).body.data.id;
      const idle = await owner.api.get(`/api/v2/workspaces/${ws}?include=current_run,locked_by`).expect(200);
      expect(idle.body).toEqual({
        data: workspaceShape(ws, org, project, { name: idle.body.data.attributes.name }),
        included: [],
      });

      await owner.api.post(`/api/v2/workspaces/${ws}/actions/lock`, { reason: 'maintenance' }).expect(200);
      const byUser = await owner.api
        .get(`/api/v2/workspaces/${ws}?include=current_run,locked_by`)
        .expect(200);
      expect(byUser.body.data.relationships['locked-by']).toEqual({
        data: { id: owner.userId, type: 'users' },
      });
      expect(byUser.body.included.map((r: { type: string; id: string }) => [r.type, r.id])).toEqual([
        ['users', owner.userId],
      ]);
      await owner.api.post(`/api/v2/workspaces/${ws}/actions/unlock`).expect(200);

      // A run that may apply holds the lock itself: both relationships name it, and it is included once.
      const cv = await uploadedVersion(t, owner, ws);
      const run = await createRun(owner, ws, {}, cv);
      const res = await owner.api.get(`/api/v2/workspaces/${ws}?include=current_run,locked_by`).expect(200);
      expect(res.body.data.relationships['current-run']).toEqual({ data: { id: run.id, type: 'runs' } });
      expect(res.body.data.relationships['locked-by']).toEqual({ data: { id: run.id, type: 'runs' } });
      const shownRun = await owner.api.get(`/api/v2/runs/${run.id}`).expect(200);
      expect(res.body.included).toEqual([shownRun.body.data]);

      const listed = await list(`search[name]=${res.body.data.attributes.name}&include=current_run`);
      expect(listed.body.data[0].relationships['current-run']).toEqual({
        data: { id: run.id, type: 'runs' },
      });
      expect(listed.body.included).toEqual([shownRun.body.data]);
    });

    it('refuses an include it does not know with a 400', async () => {
      const res = await owner.api.get(`/api/v2/organizations/${org}/workspaces?include=readme-nope`).expect(400);
      expect(res.body.errors[0]).toMatchObject({ status: '400', source: { parameter: 'include' } });
    });
  });
});

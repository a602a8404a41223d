import {
  Actor,
  createOrganization,
  createUser,
  createWorkspace,
  expectPagination,
  memberWith,
  startWithOwnedOrganization,
  unique,
} from '../helpers/fixtures';
import { TestApp } from '../helpers/test-app';
import { createRun, uploadedVersion } from '../runs/run-fixtures';

jest.setTimeout(60_000);

/**
 * go-tfe's `Runs.ListForOrganization` reads `GET /organizations/:org/runs` (with
 * `filter[status]`, `filter[workspace_names]`, `include`): the organization's runs, newest first,
 * over the workspaces the caller may read.
 */
describe('GET /organizations/:org/runs, as the official client lists them', () => {
  let t: TestApp;
  let admin: Actor;
  let owner: Actor;
  let org: string;
  let alphaName: string;
  let betaName: string;
  let alpha: string;
  let beta: string;
  let first: { id: string; status: string };
  let second: { id: string; status: string };
  let third: { id: string; status: string };

  const shown = async (...ids: string[]) =>
    Promise.all(ids.map(async (id) => (await owner.api.get(`/api/v2/runs/${id}`).expect(200)).body.data));

  beforeAll(async () => {
    ({ t, admin, owner, org } = await startWithOwnedOrganization());
    alphaName = unique('alpha');
    betaName = unique('beta');
    alpha = await createWorkspace(owner, org, alphaName);
    beta = await createWorkspace(owner, org, betaName);
    first = await createRun(owner, alpha, {}, await uploadedVersion(t, owner, alpha));
    second = await createRun(owner, beta, {}, await uploadedVersion(t, owner, beta));
    third = await createRun(owner, alpha, {}, await uploadedVersion(t, owner, alpha));
  });
  afterAll(() => t.close());

  it('lists every workspace’s runs, newest first, paginated', async () => {
    expect([first.status, second.status, third.status]).toEqual(['plan_queued', 'plan_queued', 'pending']);
    const res = await owner.api.get(`/api/v2/organizations/${org}/runs`).expect(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'links', 'meta']);
    expect(res.body.data).toEqual(await shown(third.id, second.id, first.id));
    expectPagination(res.body, { current: 1, size: 20, prev: null, next: null, pages: 1, count: 3 });
    const paged = await owner.api.get(`/api/v2/organizations/${org}/runs?page[size]=2&page[number]=2`).expect(200);
    expect(paged.body.data).toEqual(await shown(first.id));
    expectPagination(paged.body, { current: 2, size: 2, prev: 1, next: null, pages: 2, count: 3 });
  });

  it('filter[workspace_names] and filter[status] narrow it; include adds the workspaces', async () => {
    const named = await owner.api
      .get(`/api/v2/organizations/${org}/runs?filter%5Bworkspace_names%5D=${alphaName}&include=workspace`)
      .expect(200);
    expect(named.body.data).toEqual(await shown(third.id, first.id));
    const workspace = await owner.api.get(`/api/v2/workspaces/${alpha}`).expect(200);
    expect(named.body.included).toEqual([workspace.body.data]);
    const both = await owner.api
      .get(`/api/v2/organizations/${org}/runs?filter[workspace_names]=${betaName},${alphaName}&filter[status]=pending`)
      .expect(200);
    expect(both.body.data).toEqual(await shown(third.id));
    const none = await owner.api
      .get(`/api/v2/organizations/${org}/runs?filter[workspace_names]=no-such-workspace`)
      .expect(200);
    expect(none.body.data).toEqual([]);
    expectPagination(none.body, { current: 1, size: 20, prev: null, next: null, pages: 0, count: 0 });
  });

  it('refuses an unknown status and a filter it does not support', async () => {
    const status = await owner.api.get(`/api/v2/organizations/${org}/runs?filter[status]=nope`).expect(400);
    expect(status.body.errors).toEqual([
      expect.objectContaining({ status: '400', source: { parameter: 'filter[status]' } }),
    ]);
    const other = await owner.api.get(`/api/v2/organizations/${org}/runs?filter[operation]=plan_only`).expect(400);
    expect(other.body.errors).toEqual([
      expect.objectContaining({ status: '400', source: { parameter: 'filter[operation]' } }),
    ]);
  });

  it('shows a member only the runs of workspaces it may read; a stranger gets 404', async () => {
    const member = await memberWith(t, admin, owner, org, []);
    const res = await member.api.get(`/api/v2/organizations/${org}/runs`).expect(200);
    expect(res.body.data).toEqual([]);
    const stranger = await createUser(t, admin);
    await createOrganization(stranger);
    await stranger.api.get(`/api/v2/organizations/${org}/runs`).expect(404);
  });
});

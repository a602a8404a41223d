import {
  Actor,
  createOrganization,
  createUser,
  createWorkspace,
  expectPagination,
  memberWith,
  startWithOwnedOrganization,
} from '../helpers/fixtures';
import { errorsOf } from '../helpers/shapes';
import { TestApp } from '../helpers/test-app';
import { createRun, uploadedVersion } from '../runs/run-fixtures';

jest.setTimeout(60_000);

/**
 * The reads the CLI makes while a remote plan or apply waits (its `waitForRun` and task-stage
 * steps): any error there aborts the command, so each must answer 200 for a caller who may read
 * the run, and 404 for anyone else.
 */
describe('what the CLI reads while it waits for a run', () => {
  let t: TestApp;
  let admin: Actor;
  let owner: Actor;
  let org: string;
  let ws: string;
  let first: { id: string; status: string };
  let second: { id: string; status: string };

  beforeAll(async () => {
    ({ t, admin, owner, org } = await startWithOwnedOrganization());
    ws = await createWorkspace(owner, org);
    first = await createRun(owner, ws, {}, await uploadedVersion(t, owner, ws));
    second = await createRun(owner, ws, {}, await uploadedVersion(t, owner, ws));
  });
  afterAll(() => t.close());

  it('GET /runs/:id/run-events answers an empty, paginated list', async () => {
    const res = await owner.api.get(`/api/v2/runs/${first.id}/run-events`).expect(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'links', 'meta']);
    expect(res.body.data).toEqual([]);
    expectPagination(res.body, { current: 1, size: 20, prev: null, next: null, pages: 0, count: 0 });
  });

  it('GET /organizations/:org/runs/queue lists the runs holding their queue, oldest first', async () => {
    expect([first.status, second.status]).toEqual(['plan_queued', 'pending']);
    const res = await owner.api.get(`/api/v2/organizations/${org}/runs/queue`).expect(200);
    const shown = await Promise.all(
      [first.id, second.id].map(
        async (id) => (await owner.api.get(`/api/v2/runs/${id}`).expect(200)).body.data,
      ),
    );
    expect(res.body.data).toEqual(shown);
    expectPagination(res.body, { current: 1, size: 20, prev: null, next: null, pages: 1, count: 2 });
    const paged = await owner.api.get(`/api/v2/organizations/${org}/runs/queue?page[size]=1&page[number]=2`);
    expect(paged.body.data).toEqual([shown[1]]);
  });

  it('GET /organizations/:org/capacity counts the runs waiting for and held by executors', async () => {
    const res = await owner.api.get(`/api/v2/organizations/${org}/capacity`).expect(200);
    expect(res.body).toEqual({
      data: { id: org, type: 'organization-capacity', attributes: { pending: 1, running: 0 } },
    });
  });

  it('runs link no task stages and no cost estimate; include=task_stages,cost_estimate answers 200', async () => {
    const res = await owner.api.get(`/api/v2/runs/${first.id}?include=task_stages,cost_estimate`).expect(200);
    expect(res.body.data.relationships['task-stages']).toEqual({ data: [] });
    expect(res.body.data.relationships['cost-estimate']).toEqual({ data: null });
    expect(res.body.included).toEqual([]);
    expect(typeof res.body.data.attributes['has-changes']).toBe('boolean');
  });

  it('shows members only the runs of workspaces they may read', async () => {
    const member = await memberWith(t, admin, owner, org, []);
    const queue = await member.api.get(`/api/v2/organizations/${org}/runs/queue`).expect(200);
    expect(queue.body.data).toEqual([]);
    expectPagination(queue.body, { current: 1, size: 20, prev: null, next: null, pages: 0, count: 0 });
    const capacity = await member.api.get(`/api/v2/organizations/${org}/capacity`).expect(200);
    expect(capacity.body.data.attributes).toEqual({ pending: 0, running: 0 });
    await member.api.get(`/api/v2/runs/${first.id}/run-events`).expect(404);
  });

  it('answers 404 to callers outside the organization, and for runs that do not exist', async () => {
    const outsider = await createUser(t, admin);
    await createOrganization(outsider);
    for (const path of [
      `/api/v2/organizations/${org}/runs/queue`,
      `/api/v2/organizations/${org}/capacity`,
      `/api/v2/runs/${first.id}/run-events`,
      '/api/v2/runs/run-0000000000000000/run-events',
    ]) {
      const res = await outsider.api.get(path).expect(404);
      expect(res.body).toEqual(errorsOf(404));
    }
  });
});

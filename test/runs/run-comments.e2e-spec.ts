import {
  Actor,
  createOrganization,
  createUser,
  createWorkspace,
  expectPagination,
  idOf,
  ISO_MILLIS,
  startWithOwnedOrganization,
} from '../helpers/fixtures';
import { TestApp } from '../helpers/test-app';
import {
  claimJob,
  createRun,
  executor,
  PLANNED_WITH_CHANGES,
  runStatus,
  uploadedVersion,
} from './run-fixtures';

jest.setTimeout(120_000);

describe('comments on runs', () => {
  let t: TestApp;
  let admin: Actor;
  let owner: Actor;
  let org: string;

  beforeAll(async () => {
    ({ t, admin, owner, org } = await startWithOwnedOrganization());
  });
  afterAll(() => t.close());

  /** A run of a new workspace, planned with changes and waiting for confirmation. */
  async function plannedRun(): Promise<string> {
    const ws = await createWorkspace(owner, org);
    await uploadedVersion(t, owner, ws);
    const run = await createRun(owner, ws, { 'auto-apply': false });
    const ex = await executor(t, owner, org);
    const job = await claimJob(ex);
    await ex.finish(job.id, PLANNED_WITH_CHANGES).expect(204);
    expect(await runStatus(owner, run.id)).toBe('planned');
    return run.id;
  }

  it('posts, shows and lists a comment in the shape the real service uses', async () => {
    const runId = await plannedRun();
    const created = await owner.api
      .post(`/api/v2/runs/${runId}/comments`, {
        data: { type: 'comments', attributes: { body: 'looks right' } },
      })
      .expect(201);
    const id = created.body.data.id;
    expect(created.body).toEqual({
      data: {
        id: expect.stringMatching(idOf('wsc')),
        type: 'comments',
        attributes: { body: 'looks right', action: null, 'created-at': expect.stringMatching(ISO_MILLIS) },
        relationships: {
          run: { data: { type: 'runs', id: runId } },
          'created-by': { data: { type: 'users', id: owner.userId } },
        },
        links: { self: `/api/v2/comments/${id}` },
      },
    });
    const shown = await owner.api.get(`/api/v2/comments/${id}`).expect(200);
    expect(shown.body).toEqual(created.body);
    const list = await owner.api.get(`/api/v2/runs/${runId}/comments`).expect(200);
    expect(list.body.data).toEqual([created.body.data]);
    expectPagination(list.body, { current: 1, size: 20, prev: null, next: null, pages: 1, count: 1 });
  });

  it('keeps the comment an action came with, after the action, in order', async () => {
    const runId = await plannedRun();
    await owner.api
      .post(`/api/v2/runs/${runId}/comments`, { data: { type: 'comments', attributes: { body: 'first' } } })
      .expect(201);
    await owner.api.post(`/api/v2/runs/${runId}/actions/apply`, { comment: 'ship it' }).expect(202);
    expect(await runStatus(owner, runId)).toBe('apply_queued');
    await owner.api.post(`/api/v2/runs/${runId}/actions/cancel`, {}).expect(202);
    const list = await owner.api.get(`/api/v2/runs/${runId}/comments`).expect(200);
    expect(list.body.data.map((c: { attributes: object }) => c.attributes)).toEqual([
      expect.objectContaining({ body: 'first', action: null }),
      expect.objectContaining({ body: 'ship it', action: 'apply' }),
    ]);
  });

  it('refuses a bad comment before acting, and keeps no comment of a refused action', async () => {
    const runId = await plannedRun();
    const bad = await owner.api.post(`/api/v2/runs/${runId}/actions/discard`, { comment: 42 }).expect(422);
    expect(bad.body.errors[0]).toMatchObject({ status: '422', source: { pointer: '/comment' } });
    const long = await owner.api
      .post(`/api/v2/runs/${runId}/actions/discard`, { comment: 'x'.repeat(10_001) })
      .expect(422);
    expect(long.body.errors[0].detail).toBe('Comment is too long (maximum is 10000 characters)');
    expect(await runStatus(owner, runId)).toBe('planned');

    await owner.api.post(`/api/v2/runs/${runId}/actions/discard`, { comment: 'not now' }).expect(202);
    await owner.api.post(`/api/v2/runs/${runId}/actions/discard`, { comment: 'again' }).expect(409);
    const list = await owner.api.get(`/api/v2/runs/${runId}/comments`).expect(200);
    expect(list.body.data.map((c: { attributes: { body: string } }) => c.attributes.body)).toEqual([
      'not now',
    ]);
  });

  it('validates a posted comment', async () => {
    const runId = await plannedRun();
    const post = (attributes: object) =>
      owner.api.post(`/api/v2/runs/${runId}/comments`, { data: { type: 'comments', attributes } });
    const blank = await post({ body: '' }).expect(422);
    expect(blank.body.errors[0].source).toEqual({ pointer: '/data/attributes/body' });
    await post({}).expect(422);
    await post({ body: 7 }).expect(422);
    await post({ body: 'x'.repeat(10_001) }).expect(422);
  });

  it('answers 404 to whoever cannot read the run', async () => {
    const runId = await plannedRun();
    const comment = await owner.api
      .post(`/api/v2/runs/${runId}/comments`, { data: { type: 'comments', attributes: { body: 'mine' } } })
      .expect(201);
    const stranger = await createUser(t, admin);
    await createOrganization(stranger);
    await stranger.api.get(`/api/v2/runs/${runId}/comments`).expect(404);
    await stranger.api
      .post(`/api/v2/runs/${runId}/comments`, { data: { type: 'comments', attributes: { body: 'hi' } } })
      .expect(404);
    await stranger.api.get(`/api/v2/comments/${comment.body.data.id}`).expect(404);
    await owner.api.get('/api/v2/comments/wsc-0000000000000000').expect(404);
  });
});

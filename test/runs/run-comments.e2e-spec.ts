import {
  Actor,
  createOrganization,
  createUser,
  createWorkspace,
  expectPagination,
  grantWorkspace,
  idOf,
  memberWith,
  ISO_MILLIS,
  startWithOwnedOrganization,
} from '../helpers/fixtures';
import { DataSource } from 'typeorm';
import { RunCommentEntity } from '../../src/runs/entities/run-comment.entity';
import { MAX_COMMENTS_PER_RUN } from '../../src/runs/run-comments.service';
import { errorsOf } from '../helpers/shapes';
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

  /** Writes `count` comments on the run straight into the table: a thousand requests would only be slow. */
  async function seedComments(runId: string, count: number): Promise<void> {
    const rows = Array.from({ length: count }, (_, i) => ({
      id: `wsc-seed${runId.slice(-6)}${String(i).padStart(6, '0')}`,
      runId,
      body: `seeded ${i}`,
      action: null,
      createdById: null,
      createdAt: new Date(Date.now() - 60_000),
    }));
    const comments = t.app.get(DataSource).getRepository(RunCommentEntity);
    for (let i = 0; i < rows.length; i += 100) await comments.insert(rows.slice(i, i + 100));
  }

  it('keeps at most MAX_COMMENTS_PER_RUN comments on a run, even under concurrent posts', async () => {
    expect(MAX_COMMENTS_PER_RUN).toBe(1000);
    const runId = await plannedRun();
    const reader = await memberWith(t, admin, owner, org);
    const ws = (await owner.api.get(`/api/v2/runs/${runId}`).expect(200)).body.data.relationships.workspace
      .data.id as string;
    await grantWorkspace(owner, reader.teamId, ws, 'read');
    await seedComments(runId, MAX_COMMENTS_PER_RUN - 2);
    const post = (body: string) =>
      reader.api.post(`/api/v2/runs/${runId}/comments`, { data: { type: 'comments', attributes: { body } } });
    const answers = await Promise.all(['a', 'b', 'c', 'd', 'e'].map(post));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 422, 422, 422]);
    for (const refused of answers.filter((a) => a.status === 422)) {
      expect(refused.body).toEqual(errorsOf(422, { detail: 'Run already has the maximum of 1000 comments' }));
    }
    const page = await owner.api.get(`/api/v2/runs/${runId}/comments?page[size]=1`).expect(200);
    expect(page.body.meta.pagination['total-count']).toBe(MAX_COMMENTS_PER_RUN);

    // The comment an action comes with is kept all the same: actions are few and need more than read.
    await owner.api.post(`/api/v2/runs/${runId}/actions/discard`, { comment: 'closing' }).expect(202);
    const after = await owner.api.get(`/api/v2/runs/${runId}/comments?page[size]=1`).expect(200);
    expect(after.body.meta.pagination['total-count']).toBe(MAX_COMMENTS_PER_RUN + 1);
    await post('still full').expect(422);
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

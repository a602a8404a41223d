import request from 'supertest';
import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createWorkspace,
  expectPagination,
  grantWorkspace,
  idOf,
  ISO_OFFSET,
  memberWith,
} from '../helpers/fixtures';
import { tarGz } from '../helpers/tarball';
import { startApp, TestApp } from '../helpers/test-app';
import { CONFIG_ARCHIVE, createVersion, upload } from './run-fixtures';

jest.setTimeout(60_000);

describe('configuration versions', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    org = await createOrganization(admin);
  });
  afterAll(() => t.close());

  it('creates a pending version whose one-hour upload link is only in the create answer', async () => {
    const ws = await createWorkspace(admin, org);
    const res = await admin.api
      .post(`/api/v2/workspaces/${ws}/configuration-versions`, {
        data: { type: 'configuration-versions', attributes: { 'auto-queue-runs': false, speculative: true } },
      })
      .expect(201);
    expect(res.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
    const id = res.body.data.id;
    expect(res.body).toEqual({
      data: {
        id: expect.stringMatching(idOf('cv')),
        type: 'configuration-versions',
        attributes: {
          'auto-queue-runs': false,
          speculative: true,
          provisional: false,
          source: 'tfe-api',
          status: 'pending',
          error: null,
          'error-message': null,
          'status-timestamps': { 'queued-at': expect.stringMatching(ISO_OFFSET) },
          'upload-url': expect.stringMatching(new RegExp(`^${t.origin}/uploads/[^/]+$`)),
        },
        links: {
          self: `/api/v2/configuration-versions/${id}`,
          download: `/api/v2/configuration-versions/${id}/download`,
        },
      },
    });
    const shown = await admin.api.get(`/api/v2/configuration-versions/${id}`).expect(200);
    expect(shown.body.data.attributes).not.toHaveProperty('upload-url');
    expect(shown.body.data.attributes.status).toBe('pending');
  });

  it('defaults auto-queue-runs to true and speculative to false, with or without a body', async () => {
    const ws = await createWorkspace(admin, org);
    const res = await admin.api.post(`/api/v2/workspaces/${ws}/configuration-versions`).expect(201);
    expect(res.body.data.attributes).toMatchObject({ 'auto-queue-runs': true, speculative: false });
  });

  it('refuses a known attribute of the wrong type with 422', async () => {
    const ws = await createWorkspace(admin, org);
    const res = await admin.api
      .post(`/api/v2/workspaces/${ws}/configuration-versions`, {
        data: { type: 'configuration-versions', attributes: { speculative: 'yes' } },
      })
      .expect(422);
    expect(res.body.errors[0]).toMatchObject({
      status: '422',
      source: { pointer: '/data/attributes/speculative' },
    });
  });

  it('takes one PUT without Authorization, then is uploaded and downloadable through a 302', async () => {
    const ws = await createWorkspace(admin, org);
    const cv = await createVersion(admin, ws, { 'auto-queue-runs': false });
    await upload(t, cv.uploadUrl, CONFIG_ARCHIVE).expect(200);
    const shown = await admin.api.get(`/api/v2/configuration-versions/${cv.id}`).expect(200);
    expect(shown.body.data.attributes).toMatchObject({
      status: 'uploaded',
      error: null,
      'status-timestamps': {
        'queued-at': expect.stringMatching(ISO_OFFSET),
        'finished-at': expect.stringMatching(ISO_OFFSET),
      },
    });
    const again = await upload(t, cv.uploadUrl, CONFIG_ARCHIVE).expect(409);
    expect(again.body.errors).toEqual([
      {
        status: '409',
        title: 'conflict',
        code: 'UPLOAD_LINK_USED',
        detail: 'This upload link has already been used',
      },
    ]);

    const redirect = await admin.api.get(`/api/v2/configuration-versions/${cv.id}/download`).expect(302);
    const location = new URL(redirect.headers.location);
    const file = await request(t.origin).get(location.pathname).buffer(true).expect(200);
    expect(Buffer.compare(file.body as Buffer, CONFIG_ARCHIVE)).toBe(0);
  });

  it.each([
    ['not gzip', Buffer.from('plain text'), /not a valid gzip stream/],
    ['a path climbing out', tarGz([{ path: '../evil.tf', body: 'x' }]), /contains "\.\." in its path/],
    ['no regular file', tarGz([{ path: 'dir/', type: 'Directory' }]), /contains no regular file/],
    ['a device entry', tarGz([{ path: 'dev', type: 'CharacterDevice' }]), /CharacterDevice/],
  ])('errors a version whose archive has %s, with the reason', async (_name, archive, reason) => {
    const ws = await createWorkspace(admin, org);
    const cv = await createVersion(admin, ws);
    const res = await upload(t, cv.uploadUrl, archive).expect(422);
    expect(res.body.errors[0].detail).toMatch(reason);
    const shown = await admin.api.get(`/api/v2/configuration-versions/${cv.id}`).expect(200);
    expect(shown.body.data.attributes).toMatchObject({
      status: 'errored',
      error: 'invalid-archive',
      'error-message': expect.stringMatching(reason),
      'status-timestamps': { 'errored-at': expect.stringMatching(ISO_OFFSET) },
    });
    await admin.api.get(`/api/v2/configuration-versions/${cv.id}/download`).expect(404);
    const runs = await admin.api.get(`/api/v2/workspaces/${ws}/runs`).expect(200);
    expect(runs.body.data).toEqual([]);
  });

  it('queues a run once uploaded when auto-queue-runs is on, and none when it is off', async () => {
    const ws = await createWorkspace(admin, org);
    const auto = await createVersion(admin, ws);
    await upload(t, auto.uploadUrl, CONFIG_ARCHIVE).expect(200);
    const manual = await createVersion(admin, ws, { 'auto-queue-runs': false });
    await upload(t, manual.uploadUrl, CONFIG_ARCHIVE).expect(200);
    const runs = await admin.api.get(`/api/v2/workspaces/${ws}/runs`).expect(200);
    expect(runs.body.data).toHaveLength(1);
    expect(runs.body.data[0].attributes).toMatchObject({
      status: 'plan_queued',
      source: 'tfe-configuration-version',
      'trigger-reason': 'manual',
    });
    expect(runs.body.data[0].relationships['configuration-version'].data.id).toBe(auto.id);
  });

  it("lists a workspace's versions newest first, paginated", async () => {
    const ws = await createWorkspace(admin, org);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createVersion(admin, ws, { 'auto-queue-runs': false })).id);
    const res = await admin.api
      .get(`/api/v2/workspaces/${ws}/configuration-versions?page%5Bsize%5D=2`)
      .expect(200);
    expect(res.body.data.map((d: { id: string }) => d.id)).toEqual([ids[2], ids[1]]);
    expect(res.body.data[0].attributes).not.toHaveProperty('upload-url');
    expectPagination(res.body, { current: 1, size: 2, prev: null, next: 2, pages: 2, count: 3 });
  });

  it('lets readers read and download, plan access create, and hides everything from others', async () => {
    const ws = await createWorkspace(admin, org);
    const cv = await createVersion(admin, ws, { 'auto-queue-runs': false });
    await upload(t, cv.uploadUrl, CONFIG_ARCHIVE).expect(200);
    const reader = await memberWith(t, admin, admin, org);
    const planner = await memberWith(t, admin, admin, org);
    const stranger = await memberWith(t, admin, admin, org);
    await grantWorkspace(admin, reader.teamId, ws, 'read');
    await grantWorkspace(admin, planner.teamId, ws, 'plan');

    await reader.api.get(`/api/v2/configuration-versions/${cv.id}`).expect(200);
    await reader.api.get(`/api/v2/configuration-versions/${cv.id}/download`).expect(302);
    await reader.api.get(`/api/v2/workspaces/${ws}/configuration-versions`).expect(200);
    await reader.api.post(`/api/v2/workspaces/${ws}/configuration-versions`).expect(404);
    await planner.api.post(`/api/v2/workspaces/${ws}/configuration-versions`).expect(201);

    await stranger.api.get(`/api/v2/configuration-versions/${cv.id}`).expect(404);
    await stranger.api.get(`/api/v2/configuration-versions/${cv.id}/download`).expect(404);
    await stranger.api.get(`/api/v2/workspaces/${ws}/configuration-versions`).expect(404);
    await stranger.api.post(`/api/v2/workspaces/${ws}/configuration-versions`).expect(404);
  });
});

import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { create as createTar } from 'tar';
import { Clock } from '../../src/common/clock';
import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  expectPagination,
  idOf,
  ISO_MILLIS,
  ISO_OFFSET,
  memberWith,
} from '../helpers/fixtures';
import { tarGz } from '../helpers/tarball';
import { startApp, TestApp } from '../helpers/test-app';
import { createPolicy, createPolicySet, ids, makeFree } from './policy-fixtures';

// The e2e project's testTimeout does not reach hooks; booting on MySQL can take longer than 5 s.
jest.setTimeout(60_000);

/** A real policy set archive, packed by the tar package from files on disk. */
async function policyArchive(): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'plinth-policy-'));
  try {
    writeFileSync(
      join(dir, 'sentinel.hcl'),
      'policy "require-tags" {\n  enforcement_level = "advisory"\n}\n',
    );
    mkdirSync(join(dir, 'policies'));
    writeFileSync(join(dir, 'policies', 'require-tags.sentinel'), 'main = rule { true }\n');
    const chunks: Buffer[] = [];
    for await (const chunk of createTar({ gzip: true, cwd: dir, portable: true }, [
      'sentinel.hcl',
      'policies',
    ])) {
      chunks.push(Buffer.from(chunk));
    }
    return Buffer.concat(chunks);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The path of an absolute upload link, to PUT through supertest against the test server. */
const uploadPath = (link: string) => new URL(link).pathname;

describe('policy set versions and uploads', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;
  let archive: Buffer;

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    org = await createOrganization(admin);
    archive = await policyArchive();
  });
  afterAll(() => t.close());

  const newVersion = async (setId: string) => {
    const res = await admin.api.post(`/api/v2/policy-sets/${setId}/versions`).expect(201);
    return res.body.data as { id: string; links: { upload: string } };
  };
  const put = (link: string, body: Buffer) =>
    request(t.origin).put(uploadPath(link)).set('Content-Type', 'application/octet-stream').send(body);
  const showVersion = async (id: string) =>
    (await admin.api.get(`/api/v2/policy-set-versions/${id}`).expect(200)).body.data;
  const showSet = async (id: string) =>
    (await admin.api.get(`/api/v2/policy-sets/${id}`).expect(200)).body.data;

  it('creates a pending version with an absolute, one-hour upload link', async () => {
    const set = await createPolicySet(admin, org);
    const res = await admin.api.post(`/api/v2/policy-sets/${set.id}/versions`).expect(201);
    expect(res.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
    const id = res.body.data.id;
    expect(res.body).toEqual({
      data: {
        id: expect.stringMatching(idOf('polsetver')),
        type: 'policy-set-versions',
        attributes: {
          source: 'tfe-api',
          status: 'pending',
          'status-timestamps': {},
          error: null,
          'created-at': expect.stringMatching(ISO_MILLIS),
          'updated-at': expect.stringMatching(ISO_MILLIS),
        },
        relationships: { 'policy-set': { data: { id: set.id, type: 'policy-sets' } } },
        links: {
          self: `/api/v2/policy-set-versions/${id}`,
          upload: expect.stringMatching(new RegExp(`^${t.origin}/uploads/[\\w-]+\\.[\\w-]+$`)),
        },
      },
    });
    expect(await showVersion(id)).toEqual(res.body.data);
    const shown = await showSet(set.id);
    expect(shown.attributes.versioned).toBe(true);
    expect(shown.relationships['newest-version']).toEqual({ data: { id, type: 'policy-set-versions' } });
    expect(shown.relationships['current-version']).toEqual({ data: null });
  });

  it('takes a real tar.gz through the link without a token and is ready when the PUT returns', async () => {
    const set = await createPolicySet(admin, org);
    const version = await newVersion(set.id);
    const res = await put(version.links.upload, archive).expect(200);
    expect(res.text).toBe('');
    const shown = await showVersion(version.id);
    expect(shown.attributes).toEqual({
      source: 'tfe-api',
      status: 'ready',
      'status-timestamps': {
        'ingressing-at': expect.stringMatching(ISO_OFFSET),
        'ready-at': expect.stringMatching(ISO_OFFSET),
      },
      error: null,
      'created-at': expect.stringMatching(ISO_MILLIS),
      'updated-at': expect.stringMatching(ISO_MILLIS),
    });
    expect(shown.links).toEqual({ self: `/api/v2/policy-set-versions/${version.id}` });
    const linkage = { data: { id: version.id, type: 'policy-set-versions' } };
    const withVersions = await admin.api
      .get(`/api/v2/policy-sets/${set.id}?include=current_version,newest_version`)
      .expect(200);
    expect(withVersions.body.data.relationships).toMatchObject({
      'current-version': linkage,
      'newest-version': linkage,
    });
    expect(withVersions.body.included).toEqual([shown]);
  });

  it('includes the ready current version and a newer pending one as their own reads show them', async () => {
    const set = await createPolicySet(admin, org);
    const ready = await newVersion(set.id);
    await put(ready.links.upload, archive).expect(200);
    const pending = await newVersion(set.id);
    const expected = [await showVersion(ready.id), await showVersion(pending.id)];
    expect(expected[1].links.upload).toEqual(pending.links.upload);
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);

    const shown = await admin.api
      .get(`/api/v2/policy-sets/${set.id}?include=current_version,newest_version`)
      .expect(200);
    expect(shown.body.data.relationships).toMatchObject({
      'current-version': { data: { id: ready.id, type: 'policy-set-versions' } },
      'newest-version': { data: { id: pending.id, type: 'policy-set-versions' } },
    });
    expect([...shown.body.included].sort(byId)).toEqual([...expected].sort(byId));

    const listed = await admin.api
      .get(`/api/v2/organizations/${org}/policy-sets?page[size]=100&include=newest_version,current_version`)
      .expect(200);
    const referenced = new Set(
      (listed.body.data as { relationships: Record<string, { data: { id: string } | null }> }[]).flatMap(
        (s) => [s.relationships['current-version'].data?.id, s.relationships['newest-version'].data?.id],
      ),
    );
    referenced.delete(undefined);
    expect(new Set(listed.body.included.map((r: { id: string }) => r.id))).toEqual(referenced);
    expect(listed.body.included).toEqual(expect.arrayContaining(expected));
    expect(listed.body.included).toHaveLength(referenced.size);
  });

  it('answers 409 to a second PUT of the same link and keeps the first archive', async () => {
    const set = await createPolicySet(admin, org);
    const version = await newVersion(set.id);
    await put(version.links.upload, archive).expect(200);
    const again = await put(version.links.upload, tarGz([{ path: '../evil', body: 'x' }])).expect(409);
    expect(again.body).toEqual({
      errors: [
        {
          status: '409',
          title: 'conflict',
          code: 'UPLOAD_LINK_USED',
          detail: 'This upload link has already been used',
        },
      ],
    });
    expect((await showVersion(version.id)).attributes.status).toBe('ready');
  });

  it('lets exactly one of two simultaneous PUTs of a link through', async () => {
    const set = await createPolicySet(admin, org);
    const version = await newVersion(set.id);
    const answers = await Promise.all([
      put(version.links.upload, archive),
      put(version.links.upload, archive),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await showVersion(version.id)).attributes.status).toBe('ready');
  });

  it('marks the version errored for an archive entry that climbs out with ../', async () => {
    const set = await createPolicySet(admin, org);
    const good = await newVersion(set.id);
    await put(good.links.upload, archive).expect(200);
    const bad = await newVersion(set.id);
    const res = await put(
      bad.links.upload,
      tarGz([
        { path: 'ok.sentinel', body: 'x' },
        { path: '../evil', body: 'x' },
      ]),
    ).expect(422);
    expect(res.body.errors).toEqual([
      {
        status: '422',
        title: 'invalid attribute',
        detail: 'The archive was refused: entry ../evil contains ".." in its path',
      },
    ]);
    const shown = await showVersion(bad.id);
    expect(shown.attributes).toMatchObject({
      status: 'errored',
      error: 'entry ../evil contains ".." in its path',
      'status-timestamps': {
        'ingressing-at': expect.stringMatching(ISO_OFFSET),
        'errored-at': expect.stringMatching(ISO_OFFSET),
      },
    });
    expect(shown.links.upload).toBeUndefined();
    const setNow = await showSet(set.id);
    expect(setNow.relationships['current-version']).toEqual({
      data: { id: good.id, type: 'policy-set-versions' },
    });
    expect(setNow.relationships['newest-version']).toEqual({
      data: { id: bad.id, type: 'policy-set-versions' },
    });
  });

  it('marks the version errored for a corrupt gzip stream', async () => {
    const set = await createPolicySet(admin, org);
    const version = await newVersion(set.id);
    const corrupt = Buffer.from(archive);
    corrupt.fill(0x41, 10, 40);
    await put(version.links.upload, corrupt).expect(422);
    const shown = await showVersion(version.id);
    expect(shown.attributes.status).toBe('errored');
    expect(shown.attributes.error).toMatch(/^the upload is not a valid gzip stream \(.+\)$/);
  });

  it('answers 410 once the link expired, and stores nothing', async () => {
    const set = await createPolicySet(admin, org);
    const version = await newVersion(set.id);
    const clock = t.app.get(Clock);
    const realNow = clock.now.bind(clock);
    clock.now = () => new Date(realNow().getTime() + 3601 * 1000);
    try {
      const res = await put(version.links.upload, archive).expect(410);
      expect(res.body.errors[0]).toEqual({ status: '410', title: 'gone', detail: 'this link has expired' });
    } finally {
      clock.now = realNow;
    }
    expect((await showVersion(version.id)).attributes).toMatchObject({
      status: 'pending',
      'status-timestamps': {},
    });
  });

  it('answers 404 to a forged link', async () => {
    const set = await createPolicySet(admin, org);
    const version = await newVersion(set.id);
    const forged = version.links.upload.replace(/\.[\w-]+$/, '.forged');
    await put(forged, archive).expect(404);
    expect((await showVersion(version.id)).attributes.status).toBe('pending');
  });

  it('lists versions newest first, paginated', async () => {
    const set = await createPolicySet(admin, org);
    const created = [];
    for (let i = 0; i < 3; i++) created.push((await newVersion(set.id)).id);
    const first = await admin.api.get(`/api/v2/policy-sets/${set.id}/versions?page[size]=2`).expect(200);
    expect(first.body.data.map((v: { id: string }) => v.id)).toEqual([created[2], created[1]]);
    expectPagination(first.body, { current: 1, size: 2, prev: null, next: 2, pages: 2, count: 3 });
    const second = await admin.api
      .get(`/api/v2/policy-sets/${set.id}/versions?page[size]=2&page[number]=2`)
      .expect(200);
    expect(second.body.data.map((v: { id: string }) => v.id)).toEqual([created[0]]);
    expect(second.body.data[0].links.upload).toMatch(/\/uploads\//);
    expect((await showSet(set.id)).relationships['newest-version'].data.id).toBe(created[2]);
  });

  it.each(['policy_set', 'policy-set'])(
    'includes the policy set of a version with include=%s (the relationship name or its snake_case)',
    async (include) => {
      const set = await createPolicySet(admin, org);
      const version = await newVersion(set.id);
      const res = await admin.api
        .get(`/api/v2/policy-set-versions/${version.id}?include=${include}`)
        .expect(200);
      expect(res.body.included).toEqual([await showSet(set.id)]);
      await admin.api.get(`/api/v2/policy-set-versions/${version.id}?include=policy-sets`).expect(400);
    },
  );

  it('refuses versions for a VCS set and for a set using the policies relationship', async () => {
    const vcs = await createPolicySet(admin, org, { 'vcs-repo': { identifier: 'acme/policies' } });
    const res = await admin.api.post(`/api/v2/policy-sets/${vcs.id}/versions`).expect(422);
    expect(res.body.errors).toEqual([
      {
        status: '422',
        title: 'invalid attribute',
        detail: 'This policy set does not support uploading versions: its code comes from a VCS repository',
      },
    ]);
    const policyId = await createPolicy(admin, org);
    const withPolicies = await createPolicySet(admin, org, {}, { policies: ids('policies', [policyId]) });
    const refused = await admin.api.post(`/api/v2/policy-sets/${withPolicies.id}/versions`).expect(422);
    expect(refused.body.errors[0].detail).toBe(
      'This policy set does not support uploading versions: it uses the policies relationship',
    );
  });

  it('stops taking policies once it takes versions, and lists as versioned', async () => {
    const set = await createPolicySet(admin, org);
    await newVersion(set.id);
    const policyId = await createPolicy(admin, org);
    const res = await admin.api
      .post(`/api/v2/policy-sets/${set.id}/relationships/policies`, ids('policies', [policyId]))
      .expect(422);
    expect(res.body.errors[0].detail).toBe(
      'Policies cannot be added to a policy set that takes uploaded versions',
    );
    const versioned = await admin.api
      .get(
        `/api/v2/organizations/${org}/policy-sets?filter[versioned]=true&search[name]=${String(set.attributes.name)}`,
      )
      .expect(200);
    expect(versioned.body.data.map((s: { id: string }) => s.id)).toEqual([set.id]);
  });

  it('deletes versions with their set', async () => {
    const set = await createPolicySet(admin, org);
    const version = await newVersion(set.id);
    await put(version.links.upload, archive).expect(200);
    await admin.api.delete(`/api/v2/policy-sets/${set.id}`).expect(204);
    await admin.api.get(`/api/v2/policy-set-versions/${version.id}`).expect(404);
    await put(version.links.upload, archive).expect(404);
  });

  it('refuses versions in the free edition, naming the limit', async () => {
    const freeOrg = await createOrganization(admin);
    await makeFree(admin, freeOrg);
    const set = await createPolicySet(admin, freeOrg);
    const res = await admin.api.post(`/api/v2/policy-sets/${set.id}/versions`).expect(422);
    expect(res.body.errors[0].detail).toBe('The free edition does not include policy set versions');
  });

  it('answers 404 to members without manage-policies and for unknown ids', async () => {
    const set = await createPolicySet(admin, org);
    const version = await newVersion(set.id);
    const reader = await memberWith(t, admin, admin, org, ['read-workspaces', 'read-projects']);
    await reader.api.post(`/api/v2/policy-sets/${set.id}/versions`).expect(404);
    await reader.api.get(`/api/v2/policy-sets/${set.id}/versions`).expect(404);
    await reader.api.get(`/api/v2/policy-set-versions/${version.id}`).expect(404);
    const manager = await memberWith(t, admin, admin, org, ['manage-policies']);
    await manager.api.get(`/api/v2/policy-set-versions/${version.id}`).expect(200);
    await admin.api.get('/api/v2/policy-set-versions/polsetver-doesnotexist').expect(404);
    await admin.api.post('/api/v2/policy-sets/polset-doesnotexist00/versions').expect(404);
  });
});

describe('policy set version uploads over the size limit', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;

  beforeAll(async () => {
    t = await startApp({ MAX_POLICY_ARCHIVE_BYTES: '2048' });
    admin = await bootstrapAdmin(t);
    org = await createOrganization(admin);
  });
  afterAll(() => t.close());

  it('answers 413, stores nothing and leaves the link usable for a smaller archive', async () => {
    const set = await createPolicySet(admin, org);
    const created = await admin.api.post(`/api/v2/policy-sets/${set.id}/versions`).expect(201);
    const link = uploadPath(created.body.data.links.upload);
    const big = tarGz([{ path: 'big.sentinel', body: randomBytes(6000) }]);
    expect(big.length).toBeGreaterThan(2048);
    const res = await request(t.origin)
      .put(link)
      .set('Content-Type', 'application/octet-stream')
      .send(big)
      .expect(413);
    expect(res.body.errors).toEqual([
      { status: '413', title: 'payload too large', detail: 'upload exceeds the limit of 2048 bytes' },
    ]);
    const pending = await admin.api.get(`/api/v2/policy-set-versions/${created.body.data.id}`).expect(200);
    expect(pending.body.data.attributes).toMatchObject({ status: 'pending', 'status-timestamps': {} });
    await request(t.origin)
      .put(link)
      .set('Content-Type', 'application/octet-stream')
      .send(tarGz([{ path: 'small.sentinel', body: 'main = rule { true }' }]))
      .expect(200);
    const ready = await admin.api.get(`/api/v2/policy-set-versions/${created.body.data.id}`).expect(200);
    expect(ready.body.data.attributes.status).toBe('ready');
  });

  it('answers 413 to a streamed upload that declares no length, once the cap is passed', async () => {
    const set = await createPolicySet(admin, org);
    const created = await admin.api.post(`/api/v2/policy-sets/${set.id}/versions`).expect(201);
    const url = new URL(created.body.data.links.upload);
    const answer = await new Promise<{ status?: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'PUT',
          headers: { 'Content-Type': 'application/octet-stream', 'Transfer-Encoding': 'chunked' },
        },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode, body }));
        },
      );
      req.on('error', reject);
      for (let i = 0; i < 4; i++) req.write(randomBytes(1024));
      req.end();
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({
      errors: [
        { status: '413', title: 'payload too large', detail: 'upload exceeds the limit of 2048 bytes' },
      ],
    });
    const pending = await admin.api.get(`/api/v2/policy-set-versions/${created.body.data.id}`).expect(200);
    expect(pending.body.data.attributes.status).toBe('pending');
  });
});

import request from 'supertest';
import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createUser,
  memberWith,
  unique,
  startWithOwnedOrganization,
} from '../helpers/fixtures';
import { tarGz } from '../helpers/tarball';
import { startApp, TestApp } from '../helpers/test-app';
import {
  blobsExist,
  createModule,
  createModuleVersion,
  MODULE_FILES,
  moduleArchive,
  moduleBase,
  moduleBlobDir,
  moduleProvider,
  unpack,
} from './module-helpers';
import { fetchLink, put } from './registry-helpers';

describe('module registry protocol (consumer side)', () => {
  let t: TestApp;
  let admin: Actor;
  let owner: Actor;
  let org: string;

  beforeAll(async () => {
    ({ t, admin, owner, org } = await startWithOwnedOrganization());
  });
  afterAll(() => t.close());

  async function freshModule() {
    const name = unique('net');
    const provider = moduleProvider();
    const id = await createModule(owner, org, name, provider);
    return { name, provider, id, base: moduleBase(org, name, provider) };
  }

  /** Resolves a discovery-relative path the way the tool does: against the discovery URL. */
  const resolveAgainst = (base: string, relative: string) => new URL(relative, base).toString();

  it('walks like the tool: discovery → versions → download → fetch the link → the same files', async () => {
    const m = await freshModule();
    const v = await createModuleVersion(owner, m.base, '1.0.0');
    await put(v.upload, moduleArchive()).expect(200);

    const discovery = await request(t.origin).get('/.well-known/terraform.json').expect(200);
    expect(discovery.body).toEqual({
      'login.v1': expect.objectContaining({ client: 'terraform-cli' }),
      'modules.v1': '/api/registry/v1/modules/',
      'providers.v1': '/api/registry/v1/providers/',
      'tfe.v2': '/api/v2/',
      'tfe.v2.1': '/api/v2/',
      'tfe.v2.2': '/api/v2/',
    });
    const modulesBase = resolveAgainst(
      `${t.origin}/.well-known/terraform.json`,
      discovery.body['modules.v1'],
    );
    const path = `${new URL(modulesBase).pathname}${org}/${m.name}/${m.provider}`;

    const versions = await owner.api.get(`${path}/versions`).expect(200);
    expect(versions.headers['content-type']).toMatch(/^application\/json/);
    expect(versions.body).toEqual({ modules: [{ versions: [{ version: '1.0.0' }] }] });

    const download = await owner.api.get(`${path}/1.0.0/download`).expect(204);
    expect(download.text).toBe('');
    const location = download.headers['x-terraform-get'];
    expect(location).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/uploads\/[\w-]+\.[\w-]+\?archive=tar\.gz$/);

    // go-getter drops the archive hint from the URL it fetches, and sends no credentials.
    const url = new URL(location);
    expect(url.searchParams.get('archive')).toBe('tar.gz');
    url.searchParams.delete('archive');
    const fetched = await fetchLink(url.toString()).expect(200);
    expect(fetched.headers['content-type']).toBe('application/gzip');
    expect(fetched.headers['content-disposition']).toBe(
      `attachment; filename="${m.name}-${m.provider}-1.0.0.tar.gz"`,
    );
    expect(await unpack(fetched.body as Buffer)).toEqual(MODULE_FILES);
    // The link as given works too (the query is ignored by the download route).
    await fetchLink(location).expect(200);
  });

  it('lists only versions whose archive is ready; the others answer 404 in the protocol shape', async () => {
    const m = await freshModule();
    const path = `/api/registry/v1/modules/${org}/${m.name}/${m.provider}`;
    expect((await owner.api.get(`${path}/versions`).expect(200)).body).toEqual({
      modules: [{ versions: [] }],
    });
    const ok = await createModuleVersion(owner, m.base, '1.0.0');
    await put(ok.upload, moduleArchive()).expect(200);
    await createModuleVersion(owner, m.base, '1.1.0');
    const newer = await createModuleVersion(owner, m.base, '2.0.0');
    await put(newer.upload, moduleArchive({ 'main.tf': 'variable "v" {}\n' })).expect(200);
    expect((await owner.api.get(`${path}/versions`).expect(200)).body).toEqual({
      modules: [{ versions: [{ version: '1.0.0' }, { version: '2.0.0' }] }],
    });
    for (const missing of [`${path}/1.1.0/download`, `${path}/9.0.0/download`]) {
      const res = await owner.api.get(missing).expect(404);
      expect(res.body).toEqual({ errors: ['Not Found'] });
    }
  });

  it('errors a broken archive with the reason, serves nothing of it and keeps no blob', async () => {
    const m = await freshModule();
    const cases: [string, Buffer, RegExp][] = [
      ['1.0.0', Buffer.from('definitely not a tarball'), /not a valid gzip stream/],
      ['1.0.1', tarGz([{ path: 'module/main.tf', body: 'x' }]), /no \.tf or \.tf\.json file at its root/],
      ['1.0.2', tarGz([{ path: '../escape.tf', body: 'x' }]), /\.\./],
      ['1.0.3', tarGz([{ path: 'README.md', body: '# no code' }]), /no \.tf or \.tf\.json file at its root/],
    ];
    for (const [version, archive, reason] of cases) {
      const v = await createModuleVersion(owner, m.base, version);
      const res = await put(v.upload, archive).expect(422);
      expect(res.body.errors[0].detail).toMatch(reason);
      const shown = await owner.api.get(`${m.base}/version?module_version=${version}`).expect(200);
      expect(shown.body.data.attributes).toMatchObject({
        status: 'reg_ingress_failed',
        error: expect.stringMatching(reason),
      });
      expect(shown.body.data.links.upload).toBeUndefined();
      expect(blobsExist(moduleBlobDir(t, m.id, v.id))).toBe(false);
      await owner.api
        .get(`/api/registry/v1/modules/${org}/${m.name}/${m.provider}/${version}/download`)
        .expect(404);
      // The link was used: a second PUT is a conflict, not a second chance.
      await put(v.upload, moduleArchive()).expect(409);
    }
    const list = await owner.api
      .get(`/api/registry/v1/modules/${org}/${m.name}/${m.provider}/versions`)
      .expect(200);
    expect(list.body).toEqual({ modules: [{ versions: [] }] });
  });

  it('takes an upload link once: a second PUT after success is 409 and the archive stays', async () => {
    const m = await freshModule();
    const v = await createModuleVersion(owner, m.base, '1.0.0');
    await put(v.upload, moduleArchive()).expect(200);
    const again = await put(v.upload, moduleArchive({ 'main.tf': '# replaced\n' })).expect(409);
    expect(again.body.errors).toEqual([
      {
        status: '409',
        title: 'conflict',
        code: 'UPLOAD_LINK_USED',
        detail: 'This upload link has already been used',
      },
    ]);
    const dl = await owner.api
      .get(`/api/registry/v1/modules/${org}/${m.name}/${m.provider}/1.0.0/download`)
      .expect(204);
    expect(await unpack((await fetchLink(dl.headers['x-terraform-get']).expect(200)).body as Buffer)).toEqual(
      MODULE_FILES,
    );
  });

  it('removes a deleted version from the protocol and the blob store; the last one takes the module', async () => {
    const m = await freshModule();
    const path = `/api/registry/v1/modules/${org}/${m.name}/${m.provider}`;
    const one = await createModuleVersion(owner, m.base, '1.0.0');
    const two = await createModuleVersion(owner, m.base, '2.0.0');
    await put(one.upload, moduleArchive()).expect(200);
    await put(two.upload, moduleArchive()).expect(200);
    const link = (await owner.api.get(`${path}/1.0.0/download`).expect(204)).headers['x-terraform-get'];
    expect(blobsExist(moduleBlobDir(t, m.id, one.id))).toBe(true);

    await owner.api.delete(`${m.base}/1.0.0`).expect(204);
    expect(blobsExist(moduleBlobDir(t, m.id, one.id))).toBe(false);
    expect(blobsExist(moduleBlobDir(t, m.id, two.id))).toBe(true);
    expect((await owner.api.get(`${path}/versions`).expect(200)).body).toEqual({
      modules: [{ versions: [{ version: '2.0.0' }] }],
    });
    await owner.api.get(`${path}/1.0.0/download`).expect(404);
    await fetchLink(link).expect(404);
    await owner.api.delete(`${m.base}/1.0.0`).expect(404);

    await owner.api.delete(`${m.base}/2.0.0`).expect(204);
    await owner.api.get(m.base).expect(404);
    await owner.api.get(`${path}/versions`).expect(404);
    expect(blobsExist(moduleBlobDir(t, m.id))).toBe(false);
  });

  it('deletes a provider or the whole module name with every archive', async () => {
    const name = unique('whole');
    const [pa, pb] = [moduleProvider('aws'), moduleProvider('gcp')];
    const ids = [await createModule(owner, org, name, pa), await createModule(owner, org, name, pb)];
    for (const p of [pa, pb]) {
      const v = await createModuleVersion(owner, moduleBase(org, name, p), '1.0.0');
      await put(v.upload, moduleArchive()).expect(200);
    }
    expect(ids.every((id) => blobsExist(moduleBlobDir(t, id)))).toBe(true);
    await owner.api.delete(moduleBase(org, name, pa)).expect(204);
    expect(blobsExist(moduleBlobDir(t, ids[0]))).toBe(false);
    expect(blobsExist(moduleBlobDir(t, ids[1]))).toBe(true);
    await owner.api.get(`/api/registry/v1/modules/${org}/${name}/${pa}/versions`).expect(404);
    await owner.api.get(`/api/registry/v1/modules/${org}/${name}/${pb}/versions`).expect(200);

    await owner.api
      .delete(`/api/v2/organizations/${org}/registry-modules/private/${org}/${name}`)
      .expect(204);
    expect(blobsExist(moduleBlobDir(t, ids[1]))).toBe(false);
    await owner.api.get(`/api/registry/v1/modules/${org}/${name}/${pb}/versions`).expect(404);
    await owner.api
      .delete(`/api/v2/organizations/${org}/registry-modules/private/${org}/${name}`)
      .expect(404);
  });

  it('needs a token of a member: 401 without one, 404 for another organization, members read', async () => {
    const m = await freshModule();
    const v = await createModuleVersion(owner, m.base, '1.0.0');
    await put(v.upload, moduleArchive()).expect(200);
    const path = `/api/registry/v1/modules/${org}/${m.name}/${m.provider}`;
    for (const route of [`${path}/versions`, `${path}/1.0.0/download`]) {
      const anonymous = await request(t.origin).get(route).expect(401);
      expect(anonymous.body).toEqual({ errors: ['Unauthorized'] });
      const stranger = await createUser(t, admin);
      const res = await stranger.api.get(route).expect(404);
      expect(res.body).toEqual({ errors: ['Not Found'] });
    }
    const member = await memberWith(t, admin, owner, org);
    await member.api.get(`${path}/versions`).expect(200);
    const dl = await member.api.get(`${path}/1.0.0/download`).expect(204);
    await fetchLink(dl.headers['x-terraform-get']).expect(200);
    await owner.api.get(`/api/registry/v1/modules/${org}/${m.name}/other/versions`).expect(404);
    await owner.api.get(`/api/registry/v1/modules/no-such-org/${m.name}/${m.provider}/versions`).expect(404);
  });

  it('deleting the organization removes its module archives', async () => {
    const o = await createOrganization(owner);
    const provider = moduleProvider();
    const id = await createModule(owner, o, 'gone', provider);
    const v = await createModuleVersion(owner, moduleBase(o, 'gone', provider), '1.0.0');
    await put(v.upload, moduleArchive()).expect(200);
    expect(blobsExist(moduleBlobDir(t, id))).toBe(true);
    await owner.api.delete(`/api/v2/organizations/${o}`).expect(204);
    expect(blobsExist(moduleBlobDir(t, id))).toBe(false);
  });
});

describe('module archives over the size limit', () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await startApp({ MAX_MODULE_ARCHIVE_BYTES: '300' });
  });
  afterAll(() => small.close());

  it('refuses an archive over MAX_MODULE_ARCHIVE_BYTES with 413 and leaves the link usable', async () => {
    const a = await bootstrapAdmin(small);
    const o = await createUser(small, a);
    const org = await createOrganization(o);
    const provider = moduleProvider();
    const id = await createModule(o, org, 'big', provider);
    const base = moduleBase(org, 'big', provider);
    const v = await createModuleVersion(o, base, '1.0.0');
    await put(v.upload, Buffer.alloc(1000, 1)).expect(413);
    const shown = await o.api.get(`${base}/version?module_version=1.0.0`).expect(200);
    expect(shown.body.data.attributes.status).toBe('pending');
    expect(blobsExist(moduleBlobDir(small, id))).toBe(false);
    await put(v.upload, moduleArchive({ 'main.tf': '' })).expect(200);
  });
});

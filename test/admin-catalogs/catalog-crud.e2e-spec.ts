import { Actor, bootstrapAdmin, idOf, ISO_MILLIS } from '../helpers/fixtures';
import { JSONAPI, startApp, TestApp } from '../helpers/test-app';
import { CATALOGS, createCatalogVersion, downloadUrl, sha, versionBody } from './catalog-helpers';

describe.each(CATALOGS)('the %s catalog', (catalog) => {
  const path = `/api/v2/admin/${catalog}`;
  const other = CATALOGS.find((c) => c !== catalog)!;
  let t: TestApp;
  let admin: Actor;

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
  });
  afterAll(() => t.close());

  const create = (attributes: Record<string, unknown>) =>
    admin.api.post(path, versionBody(catalog, attributes));
  const update = (id: string, attributes: Record<string, unknown>) =>
    admin.api.patch(`${path}/${id}`, { data: { type: catalog, id, attributes } });
  const errorsOf = (body: { errors: { detail: string; code?: string; source?: { pointer: string } }[] }) =>
    body.errors.map((e) => ({
      detail: e.detail,
      ...(e.code ? { code: e.code } : {}),
      pointer: e.source?.pointer,
    }));

  describe('create', () => {
    it('answers 201 with the version, the contract defaults and usage 0', async () => {
      const res = await create({ version: '1.2.3', url: downloadUrl('1.2.3'), sha: sha('b') }).expect(201);
      expect(res.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
      expect(res.body).toEqual({
        data: {
          id: expect.stringMatching(idOf('tool')),
          type: catalog,
          attributes: {
            version: '1.2.3',
            url: downloadUrl('1.2.3'),
            sha: sha('b'),
            deprecated: false,
            'deprecated-reason': null,
            official: false,
            enabled: true,
            beta: false,
            usage: 0,
            'created-at': expect.stringMatching(ISO_MILLIS),
          },
          links: { self: `${path}/${res.body.data.id}` },
        },
      });
    });

    it('stores every optional attribute it is given', async () => {
      const res = await create({
        version: '0.12.20-beta1',
        url: 'http://mirror.internal:8080/engine.zip',
        sha: sha('C'),
        deprecated: true,
        'deprecated-reason': 'Security issue CVE-1',
        official: true,
        enabled: false,
        beta: true,
      }).expect(201);
      expect(res.body.data.attributes).toEqual({
        version: '0.12.20-beta1',
        url: 'http://mirror.internal:8080/engine.zip',
        sha: sha('c'),
        deprecated: true,
        'deprecated-reason': 'Security issue CVE-1',
        official: true,
        enabled: false,
        beta: true,
        usage: 0,
        'created-at': expect.stringMatching(ISO_MILLIS),
      });
    });

    it('ignores usage and unknown attributes sent by the client', async () => {
      const res = await create({ version: '1.2.4', url: downloadUrl('1.2.4'), sha: sha(), usage: 7, x: 1 });
      expect(res.status).toBe(201);
      expect(res.body.data.attributes.usage).toBe(0);
      expect(res.body.data.attributes).not.toHaveProperty('x');
    });

    it('refuses a version the catalog already has, whatever its case', async () => {
      await createCatalogVersion(admin, catalog, '2.0.0-Rc1');
      for (const version of ['2.0.0-Rc1', '2.0.0-rc1']) {
        const res = await create({ version, url: downloadUrl(version), sha: sha() }).expect(422);
        expect(res.body).toEqual({
          errors: [
            {
              status: '422',
              title: 'invalid attribute',
              code: 'VERSION_TAKEN',
              detail: 'Version has already been taken',
              source: { pointer: '/data/attributes/version' },
            },
          ],
        });
      }
    });

    it('lets exactly one of several concurrent creates of a version succeed', async () => {
      const attempts = await Promise.all(
        Array.from({ length: 5 }, () => create({ version: '2.5.0', url: downloadUrl('2.5.0'), sha: sha() })),
      );
      expect(attempts.map((r) => r.status).sort()).toEqual([201, 422, 422, 422, 422]);
      for (const r of attempts.filter((a) => a.status === 422)) {
        expect(errorsOf(r.body)).toEqual([
          {
            detail: 'Version has already been taken',
            code: 'VERSION_TAKEN',
            pointer: '/data/attributes/version',
          },
        ]);
      }
      const list = await admin.api.get(`${path}?filter[version]=2.5.0`).expect(200);
      expect(list.body.meta.pagination['total-count']).toBe(1);
    });

    it('accepts a version that only the other catalog has', async () => {
      await createCatalogVersion(admin, other, '3.3.3');
      await create({ version: '3.3.3', url: downloadUrl('3.3.3'), sha: sha() }).expect(201);
    });

    it('requires version, url and sha with one error each', async () => {
      const res = await create({}).expect(422);
      expect(errorsOf(res.body)).toEqual([
        { detail: "Version can't be blank", pointer: '/data/attributes/version' },
        { detail: "Url can't be blank", pointer: '/data/attributes/url' },
        { detail: "Sha can't be blank", pointer: '/data/attributes/sha' },
      ]);
      const blanks = await create({ version: '', url: null, sha: '' }).expect(422);
      expect(errorsOf(blanks.body).map((e) => e.detail)).toEqual([
        "Version can't be blank",
        "Url can't be blank",
        "Sha can't be blank",
      ]);
    });

    const INVALID_VERSION = 'Version is invalid: use N.N.N or N.N.N-bundleName';
    const INVALID_URL = 'Url is invalid: use an http or https URL';
    const INVALID_SHA = 'Sha is invalid: use the 64 hexadecimal characters of a SHA-256 checksum';
    it.each([
      ['version', 'with two parts', '1.2', INVALID_VERSION],
      ['version', 'with a v prefix', 'v1.2.3', INVALID_VERSION],
      ['version', 'with an empty bundle name', '1.2.3-', INVALID_VERSION],
      ['version', 'latest', 'latest', INVALID_VERSION],
      [
        'version',
        'of 65 characters',
        `1.2.3-${'b'.repeat(59)}`,
        'Version is too long (maximum is 64 characters)',
      ],
      ['version', 'a number', 123, 'Version must be a string'],
      ['url', 'with an ftp scheme', 'ftp://releases.example.com/e.zip', INVALID_URL],
      ['url', 'without a scheme', 'releases.example.com/e.zip', INVALID_URL],
      ['url', 'without a host', 'https://', INVALID_URL],
      [
        'url',
        'of 2049 characters',
        `https://e.com/${'a'.repeat(2035)}`,
        'Url is too long (maximum is 2048 characters)',
      ],
      ['url', 'an array', ['https://e.com'], 'Url must be a string'],
      ['sha', 'of 3 characters', 'abc', INVALID_SHA],
      ['sha', 'not hexadecimal', 'g'.repeat(64), INVALID_SHA],
      ['sha', 'of 65 characters', 'a'.repeat(65), 'Sha is too long (maximum is 64 characters)'],
      ['deprecated', 'a string', 'true', 'Deprecated must be a boolean'],
      ['deprecated', 'null', null, 'Deprecated must be a boolean'],
      ['deprecated-reason', 'a number', 5, 'Deprecated reason must be a string'],
      ['official', 'a number', 1, 'Official must be a boolean'],
      ['enabled', 'a string', 'yes', 'Enabled must be a boolean'],
      ['beta', 'null', null, 'Beta must be a boolean'],
    ])('refuses a %s %s with one 422 pointing at it', async (attribute, _label, value, detail) => {
      const valid = { version: '9.9.9', url: downloadUrl('9.9.9'), sha: sha() };
      const res = await create({ ...valid, [attribute]: value }).expect(422);
      expect(errorsOf(res.body)).toEqual([{ detail, pointer: `/data/attributes/${attribute}` }]);
    });

    it('reports every broken rule of one request at once', async () => {
      const res = await create({ version: 'x', url: 'nope', sha: 'z', beta: 'no' }).expect(422);
      expect(errorsOf(res.body).map((e) => e.pointer)).toEqual([
        '/data/attributes/version',
        '/data/attributes/url',
        '/data/attributes/sha',
        '/data/attributes/beta',
      ]);
    });

    it('refuses a deprecated reason on a version that is not deprecated', async () => {
      for (const extra of [
        { 'deprecated-reason': 'old' },
        { deprecated: false, 'deprecated-reason': 'old' },
      ]) {
        const res = await create({
          version: '4.0.0',
          url: downloadUrl('4.0.0'),
          sha: sha(),
          ...extra,
        }).expect(422);
        expect(errorsOf(res.body)).toEqual([
          {
            detail: 'Deprecated reason can only be set on a deprecated version',
            pointer: '/data/attributes/deprecated-reason',
          },
        ]);
      }
      const nullReason = await create({
        version: '4.0.0',
        url: downloadUrl('4.0.0'),
        sha: sha(),
        'deprecated-reason': null,
      }).expect(201);
      expect(nullReason.body.data.attributes['deprecated-reason']).toBeNull();
    });

    it('reports a duplicate version together with the other broken rules', async () => {
      await createCatalogVersion(admin, catalog, '4.1.0');
      const res = await create({
        version: '4.1.0',
        url: downloadUrl('4.1.0'),
        sha: sha(),
        'deprecated-reason': 'why',
      }).expect(422);
      expect(errorsOf(res.body).map((e) => e.detail)).toEqual([
        'Deprecated reason can only be set on a deprecated version',
        'Version has already been taken',
      ]);
    });

    it.each([
      [{ type: other }, 409],
      [{ type: 'tool-versions' }, 409],
      [{}, 422],
    ])('refuses data %j on /data/type (another type 409, none 422)', async (data, status) => {
      const detail = `Type must be ${catalog}`;
      const res = await admin.api
        .post(path, {
          data: { ...data, attributes: { version: '5.0.0', url: downloadUrl('5.0.0'), sha: sha() } },
        })
        .expect(status);
      expect(errorsOf(res.body)).toEqual([{ detail, pointer: '/data/type' }]);
    });

    it('answers 400 to a body that is not JSON', async () => {
      const res = await admin.api.post(path).set('Content-Type', JSONAPI).send('{').expect(400);
      expect(res.body.errors[0]).toMatchObject({ status: '400', title: 'bad request' });
    });
  });

  describe('show', () => {
    it('answers 200 with the same resource create returned', async () => {
      const created = await create({
        version: '6.0.0',
        url: downloadUrl('6.0.0'),
        sha: sha(),
        beta: true,
      }).expect(201);
      const res = await admin.api.get(`${path}/${created.body.data.id}`).expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
      expect(res.body).toEqual(created.body);
    });

    it('answers 404 for an unknown id and for an id of the other catalog', async () => {
      const foreign = await createCatalogVersion(admin, other, '6.1.0');
      for (const id of ['tool-0000000000000000', foreign]) {
        const res = await admin.api.get(`${path}/${id}`).expect(404);
        expect(res.body).toEqual({ errors: [{ status: '404', title: 'not found' }] });
      }
    });
  });

  describe('update', () => {
    it('changes what is sent and keeps every omitted attribute', async () => {
      const id = await createCatalogVersion(admin, catalog, '7.0.0', { official: true, beta: true });
      const before = (await admin.api.get(`${path}/${id}`).expect(200)).body.data;
      const res = await update(id, { enabled: false }).expect(200);
      expect(res.body).toEqual({
        data: { ...before, attributes: { ...before.attributes, enabled: false } },
      });
      expect((await admin.api.get(`${path}/${id}`).expect(200)).body).toEqual(res.body);
    });

    it('changes every writable attribute at once', async () => {
      const id = await createCatalogVersion(admin, catalog, '7.1.0');
      const res = await update(id, {
        version: '7.1.1',
        url: 'https://other.example.com/e.zip',
        sha: sha('d'),
        deprecated: true,
        'deprecated-reason': 'superseded',
        official: true,
        enabled: false,
        beta: true,
      }).expect(200);
      expect(res.body.data).toEqual({
        id,
        type: catalog,
        attributes: {
          version: '7.1.1',
          url: 'https://other.example.com/e.zip',
          sha: sha('d'),
          deprecated: true,
          'deprecated-reason': 'superseded',
          official: true,
          enabled: false,
          beta: true,
          usage: 0,
          'created-at': expect.stringMatching(ISO_MILLIS),
        },
        links: { self: `${path}/${id}` },
      });
    });

    it('accepts a reason alone for a version already deprecated', async () => {
      const id = await createCatalogVersion(admin, catalog, '7.2.0', { deprecated: true });
      const res = await update(id, { 'deprecated-reason': 'broken state locking' }).expect(200);
      expect(res.body.data.attributes).toMatchObject({
        deprecated: true,
        'deprecated-reason': 'broken state locking',
      });
    });

    it('clears the reason when the version is no longer deprecated', async () => {
      const id = await createCatalogVersion(admin, catalog, '7.3.0', {
        deprecated: true,
        'deprecated-reason': 'bug',
      });
      const res = await update(id, { deprecated: false }).expect(200);
      expect(res.body.data.attributes).toMatchObject({ deprecated: false, 'deprecated-reason': null });
    });

    it('refuses a reason for a version that is not or no longer deprecated', async () => {
      const plain = await createCatalogVersion(admin, catalog, '7.4.0');
      const deprecated = await createCatalogVersion(admin, catalog, '7.4.1', { deprecated: true });
      for (const [id, attributes] of [
        [plain, { 'deprecated-reason': 'x' }],
        [deprecated, { deprecated: false, 'deprecated-reason': 'x' }],
      ] as const) {
        const res = await update(id, attributes).expect(422);
        expect(errorsOf(res.body)).toEqual([
          {
            detail: 'Deprecated reason can only be set on a deprecated version',
            pointer: '/data/attributes/deprecated-reason',
          },
        ]);
      }
      expect((await admin.api.get(`${path}/${deprecated}`).expect(200)).body.data.attributes.deprecated).toBe(
        true,
      );
    });

    it('refuses a version another entry has', async () => {
      await createCatalogVersion(admin, catalog, '7.5.0');
      const id = await createCatalogVersion(admin, catalog, '7.5.1');
      const res = await update(id, { version: '7.5.0' }).expect(422);
      expect(errorsOf(res.body)).toEqual([
        {
          detail: 'Version has already been taken',
          code: 'VERSION_TAKEN',
          pointer: '/data/attributes/version',
        },
      ]);
    });

    it('validates sent attributes with the create rules; null is not a value', async () => {
      const id = await createCatalogVersion(admin, catalog, '7.6.0');
      const res = await update(id, { version: null, url: 'x', sha: '', enabled: null }).expect(422);
      expect(errorsOf(res.body)).toEqual([
        { detail: "Version can't be blank", pointer: '/data/attributes/version' },
        { detail: 'Url is invalid: use an http or https URL', pointer: '/data/attributes/url' },
        { detail: "Sha can't be blank", pointer: '/data/attributes/sha' },
        { detail: 'Enabled must be a boolean', pointer: '/data/attributes/enabled' },
      ]);
    });

    it('refuses a body of the other catalog type', async () => {
      const id = await createCatalogVersion(admin, catalog, '7.7.0');
      const res = await admin.api
        .patch(`${path}/${id}`, { data: { type: other, attributes: { beta: true } } })
        .expect(409);
      expect(errorsOf(res.body)).toEqual([{ detail: `Type must be ${catalog}`, pointer: '/data/type' }]);
    });

    it('answers 404 for an unknown id and for an id of the other catalog', async () => {
      const foreign = await createCatalogVersion(admin, other, '7.8.0');
      for (const id of ['tool-0000000000000000', foreign]) {
        await update(id, { beta: true }).expect(404);
      }
    });
  });

  describe('delete', () => {
    it('answers 204 with an empty body, after which the version is gone', async () => {
      const id = await createCatalogVersion(admin, catalog, '8.0.0');
      const res = await admin.api.delete(`${path}/${id}`).expect(204);
      expect(res.text).toBe('');
      await admin.api.get(`${path}/${id}`).expect(404);
      await admin.api.delete(`${path}/${id}`).expect(404);
      await createCatalogVersion(admin, catalog, '8.0.0');
    });

    it('refuses to delete an official version and says so', async () => {
      const id = await createCatalogVersion(admin, catalog, '8.1.0', { official: true });
      const res = await admin.api.delete(`${path}/${id}`).expect(422);
      expect(res.body).toEqual({
        errors: [
          {
            status: '422',
            title: 'invalid attribute',
            detail: 'Version 8.1.0 is official and cannot be deleted',
          },
        ],
      });
      await update(id, { official: false }).expect(200);
      await admin.api.delete(`${path}/${id}`).expect(204);
    });

    it('answers 404 for an id of the other catalog and leaves it alone', async () => {
      const foreign = await createCatalogVersion(admin, other, '8.2.0');
      await admin.api.delete(`${path}/${foreign}`).expect(404);
      await admin.api.get(`/api/v2/admin/${other}/${foreign}`).expect(200);
    });
  });
});

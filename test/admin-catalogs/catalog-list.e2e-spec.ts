import { Actor, bootstrapAdmin, expectPagination } from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import { CATALOGS, createCatalogVersion } from './catalog-helpers';

const VERSIONS = ['1.0.0', '1.1.0', '1.1.1', '1.10.0', '2.0.0', '2.1.0-beta1', '21.0.0'];

describe.each(CATALOGS)('listing the %s catalog', (catalog) => {
  const path = `/api/v2/admin/${catalog}`;
  let t: TestApp;
  let admin: Actor;
  const ids = new Map<string, string>();

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    for (const v of VERSIONS) ids.set(v, await createCatalogVersion(admin, catalog, v));
    // The other catalog's entries never show up here.
    const other = CATALOGS.find((c) => c !== catalog)!;
    await createCatalogVersion(admin, other, '1.0.0');
    await createCatalogVersion(admin, other, '9.9.9');
  });
  afterAll(() => t.close());

  const versionsOf = (body: { data: { attributes: { version: string } }[] }) =>
    body.data.map((d) => d.attributes.version);

  it('answers the first page of 20 in version order with pagination links and meta', async () => {
    const res = await admin.api.get(path).expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
    expect(versionsOf(res.body)).toEqual([...VERSIONS].sort());
    expect(res.body.data[0]).toEqual({
      id: ids.get('1.0.0'),
      type: catalog,
      attributes: expect.objectContaining({ version: '1.0.0', usage: 0 }),
      links: { self: `${path}/${ids.get('1.0.0')}` },
    });
    const shown = await admin.api.get(`${path}/${ids.get('1.0.0')}`).expect(200);
    expect(res.body.data[0]).toEqual(shown.body.data);
    expectPagination(res.body, { current: 1, size: 20, prev: null, next: null, pages: 1, count: 7 });
    expect(res.body.links.self).toBe(`${t.origin}${path}?page%5Bnumber%5D=1&page%5Bsize%5D=20`);
  });

  it('pages through the catalog', async () => {
    const res = await admin.api.get(`${path}?page[number]=2&page[size]=3`).expect(200);
    expect(versionsOf(res.body)).toEqual([...VERSIONS].sort().slice(3, 6));
    expectPagination(res.body, { current: 2, size: 3, prev: 1, next: 3, pages: 3, count: 7 });
    expect(res.body.links.next).toBe(`${t.origin}${path}?page%5Bnumber%5D=3&page%5Bsize%5D=3`);
  });

  it('answers page 999 with no data and the true totals', async () => {
    const res = await admin.api.get(`${path}?page[number]=999`).expect(200);
    expect(res.body.data).toEqual([]);
    expectPagination(res.body, { current: 999, size: 20, prev: 1, next: null, pages: 1, count: 7 });
  });

  it('refuses a page size above 100 with a 422 naming the parameter', async () => {
    const res = await admin.api.get(`${path}?page[size]=101`).expect(422);
    expect(res.body.errors).toEqual([
      {
        status: '422',
        title: 'invalid attribute',
        detail: 'page[size] must be between 1 and 100',
        source: { parameter: 'page[size]' },
      },
    ]);
  });

  it('matches search[version] anywhere in the version', async () => {
    const res = await admin.api.get(`${path}?search[version]=1.0`).expect(200);
    expect(versionsOf(res.body)).toEqual(['1.0.0', '1.1.0', '2.1.0-beta1', '21.0.0']);
    expectPagination(res.body, { current: 1, size: 20, prev: null, next: null, pages: 1, count: 4 });
    expect(res.body.links.self).toContain('search%5Bversion%5D=1.0');
  });

  it('treats search wildcards as plain characters', async () => {
    const res = await admin.api.get(`${path}?search[version]=${encodeURIComponent('1_0')}`).expect(200);
    expect(res.body.data).toEqual([]);
    const beta = await admin.api.get(`${path}?search[version]=BETA`).expect(200);
    expect(versionsOf(beta.body)).toEqual(['2.1.0-beta1']);
  });

  it('matches filter[version] exactly', async () => {
    const res = await admin.api.get(`${path}?filter[version]=1.1.0`).expect(200);
    expect(versionsOf(res.body)).toEqual(['1.1.0']);
    expectPagination(res.body, { current: 1, size: 20, prev: null, next: null, pages: 1, count: 1 });
    const none = await admin.api.get(`${path}?filter[version]=1.1`).expect(200);
    expect(none.body.data).toEqual([]);
    expect(none.body.meta.pagination).toMatchObject({ 'total-count': 0, 'total-pages': 0 });
  });

  it('lets filter[version] take precedence over search[version]', async () => {
    const res = await admin.api.get(`${path}?search[version]=2.&filter[version]=1.0.0`).expect(200);
    expect(versionsOf(res.body)).toEqual(['1.0.0']);
    const missing = await admin.api.get(`${path}?search[version]=1&filter[version]=7.7.7`).expect(200);
    expect(missing.body.data).toEqual([]);
  });
});

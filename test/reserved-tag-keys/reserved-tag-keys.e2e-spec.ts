import { DataSource } from 'typeorm';
import {
  Actor,
  createOrganization,
  createUser,
  expectPagination,
  idOf,
  ISO_MILLIS,
  reserveTagKey,
  startWithOwnedOrganization,
} from '../helpers/fixtures';
import { JSONAPI, TestApp } from '../helpers/test-app';

const body = (key: unknown, disableOverrides: unknown) => ({
  data: { type: 'reserved-tag-keys', attributes: { key, 'disable-overrides': disableOverrides } },
});

describe('reserved tag keys', () => {
  let t: TestApp;
  let admin: Actor;
  let owner: Actor;
  let org: string;

  beforeAll(async () => {
    ({ t, admin, owner, org } = await startWithOwnedOrganization());
  });
  afterAll(() => t.close());

  const listPath = () => `/api/v2/organizations/${org}/reserved-tag-keys`;

  it('creates a key with 201 and answers with the full resource', async () => {
    const res = await owner.api.post(listPath(), body('cost-center', true)).expect(201);
    expect(res.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
    const id = res.body.data.id;
    expect(res.body).toEqual({
      data: {
        id: expect.stringMatching(idOf('rtk')),
        type: 'reserved-tag-keys',
        attributes: {
          key: 'cost-center',
          'disable-overrides': true,
          'created-at': expect.stringMatching(ISO_MILLIS),
          'updated-at': expect.stringMatching(ISO_MILLIS),
        },
        links: { self: `/api/v2/reserved-tag-keys/${id}` },
      },
    });
    expect(res.body.data.attributes['updated-at']).toBe(res.body.data.attributes['created-at']);
  });

  it('lists a key byte-for-byte as its create response showed it', async () => {
    const created = await owner.api.post(listPath(), body('Owner team', false)).expect(201);
    const list = await owner.api.get(`${listPath()}?page[size]=100`).expect(200);
    const item = list.body.data.find((k: { id: string }) => k.id === created.body.data.id);
    expect(JSON.stringify(item)).toBe(JSON.stringify(created.body.data));
    const shown = await owner.api.get(`/api/v2/reserved-tag-keys/${created.body.data.id}`).expect(200);
    expect(JSON.stringify(shown.body.data)).toBe(JSON.stringify(created.body.data));
  });

  it('accepts every allowed character, spaces inside and 128 characters', async () => {
    for (const key of ['a.b=c+d-e@f:g_h', 'with inner spaces', 'k'.repeat(128), 'X', '0']) {
      const res = await owner.api.post(listPath(), body(key, false)).expect(201);
      expect(res.body.data.attributes.key).toBe(key);
    }
  });

  it.each([
    ['a character outside the allowed set', 'bad/key'],
    ['a letter outside ASCII', 'clé'],
    ['129 characters', 'k'.repeat(129)],
    ['a leading space', ' env'],
    ['a trailing space', 'env '],
    ['a number instead of a string', 42],
  ])('refuses a key with %s as "Key is invalid"', async (_, key) => {
    const res = await owner.api.post(listPath(), body(key, false)).expect(422);
    expect(res.body).toEqual({
      errors: [
        {
          status: '422',
          title: 'invalid attribute',
          detail: 'Key is invalid',
          source: { pointer: '/data/attributes/key' },
        },
      ],
    });
  });

  it('requires both attributes on create, one error per missing attribute', async () => {
    const res = await owner.api
      .post(listPath(), { data: { type: 'reserved-tag-keys', attributes: {} } })
      .expect(422);
    expect(res.body.errors).toEqual([
      {
        status: '422',
        title: 'invalid attribute',
        detail: "Key can't be blank",
        source: { pointer: '/data/attributes/key' },
      },
      {
        status: '422',
        title: 'invalid attribute',
        detail: "Disable overrides can't be blank",
        source: { pointer: '/data/attributes/disable-overrides' },
      },
    ]);
  });

  it.each([['true'], [1], [{}]])('refuses a non-boolean disable-overrides (%j) with 422', async (value) => {
    const res = await owner.api.post(listPath(), body('bool-check', value)).expect(422);
    expect(res.body.errors).toEqual([
      {
        status: '422',
        title: 'invalid attribute',
        detail: 'Disable overrides must be a boolean',
        source: { pointer: '/data/attributes/disable-overrides' },
      },
    ]);
  });

  it('refuses a wrong data.type with 409', async () => {
    const res = await owner.api
      .post(listPath(), { data: { type: 'tags', attributes: { key: 'x', 'disable-overrides': false } } })
      .expect(409);
    expect(res.body.errors[0].source).toEqual({ pointer: '/data/type' });
  });

  it('refuses a key already taken in the organization, ignoring case', async () => {
    await reserveTagKey(owner, org, 'team', false);
    for (const key of ['team', 'TEAM']) {
      const res = await owner.api.post(listPath(), body(key, true)).expect(422);
      expect(res.body).toEqual({
        errors: [
          {
            status: '422',
            title: 'invalid attribute',
            code: 'KEY_TAKEN',
            detail: 'Key has already been taken',
            source: { pointer: '/data/attributes/key' },
          },
        ],
      });
    }
  });

  it('lets another organization reserve the same key', async () => {
    const other = await createOrganization(owner);
    await reserveTagKey(owner, other, 'team', true);
  });

  it('keeps exactly one row when 20 clients create the same key at once, in cases of their own', async () => {
    const spellings = ['contended', 'CONTENDED', 'Contended', 'conTENDed'];
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => owner.api.post(listPath(), body(spellings[i % 4], true))),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array(19).fill(422)]);
    for (const r of results.filter((x) => x.status === 422)) {
      expect(r.body.errors).toEqual([
        {
          status: '422',
          title: 'invalid attribute',
          code: 'KEY_TAKEN',
          detail: 'Key has already been taken',
          source: { pointer: '/data/attributes/key' },
        },
      ]);
    }
    const rows: unknown[] = await t.app
      .get(DataSource)
      .query('SELECT id FROM reserved_tag_keys WHERE LOWER(`key`) = ?', ['contended']);
    expect(rows).toHaveLength(1);
  });

  describe('update', () => {
    it.each(['reserved-tag-keys', 'reserved-tags'])(
      'PATCH /%s/:id replaces both attributes, accepts its echoed id, ignores timestamps, and moves updated-at',
      async (segment) => {
        const created = (await owner.api.post(listPath(), body(`patch-${segment}`, false)).expect(201)).body
          .data;
        const res = await owner.api
          .patch(`/api/v2/${segment}/${created.id}`, {
            data: {
              id: created.id,
              type: 'reserved-tag-keys',
              attributes: {
                key: `renamed-${segment}`,
                'disable-overrides': true,
                'created-at': '2001-01-01T00:00:00.000Z',
                'updated-at': '2001-01-01T00:00:00.000Z',
              },
            },
          })
          .expect(200);
        expect(res.body).toEqual({
          data: {
            id: created.id,
            type: 'reserved-tag-keys',
            attributes: {
              key: `renamed-${segment}`,
              'disable-overrides': true,
              'created-at': created.attributes['created-at'],
              'updated-at': expect.stringMatching(ISO_MILLIS),
            },
            links: { self: `/api/v2/reserved-tag-keys/${created.id}` },
          },
        });
        expect(Date.parse(res.body.data.attributes['updated-at'])).toBeGreaterThan(
          Date.parse(created.attributes['updated-at']),
        );
        const shown = await owner.api.get(`/api/v2/reserved-tag-keys/${created.id}`).expect(200);
        expect(shown.body.data).toEqual(res.body.data);
      },
    );

    it('requires both attributes on update too', async () => {
      const id = await reserveTagKey(owner, org, 'needs-both', false);
      const res = await owner.api
        .patch(`/api/v2/reserved-tag-keys/${id}`, {
          data: { type: 'reserved-tag-keys', attributes: { 'disable-overrides': true } },
        })
        .expect(422);
      expect(res.body.errors).toEqual([
        {
          status: '422',
          title: 'invalid attribute',
          detail: "Key can't be blank",
          source: { pointer: '/data/attributes/key' },
        },
      ]);
    });

    it('refuses renaming onto another key of the organization but allows changing its own case', async () => {
      await reserveTagKey(owner, org, 'first-key', false);
      const id = await reserveTagKey(owner, org, 'second-key', false);
      const res = await owner.api
        .patch(`/api/v2/reserved-tag-keys/${id}`, body('First-Key', false))
        .expect(422);
      expect(res.body.errors[0].detail).toBe('Key has already been taken');
      const own = await owner.api
        .patch(`/api/v2/reserved-tag-keys/${id}`, body('SECOND-key', true))
        .expect(200);
      expect(own.body.data.attributes.key).toBe('SECOND-key');
    });
  });

  describe('delete', () => {
    it.each(['reserved-tag-keys', 'reserved-tags'])(
      'DELETE /%s/:id answers 204 with no body',
      async (segment) => {
        const id = await reserveTagKey(owner, org, `delete-${segment}`, true);
        const res = await owner.api.delete(`/api/v2/${segment}/${id}`).expect(204);
        expect(res.text).toBe('');
        await owner.api.get(`/api/v2/reserved-tag-keys/${id}`).expect(404);
        await owner.api.delete(`/api/v2/${segment}/${id}`).expect(404);
        await reserveTagKey(owner, org, `delete-${segment}`, false);
      },
    );
  });

  it('answers 404 for an unknown id or organization', async () => {
    await owner.api.patch('/api/v2/reserved-tag-keys/rtk-0000000000000000', body('x', true)).expect(404);
    await owner.api.delete('/api/v2/reserved-tags/rtk-0000000000000000').expect(404);
    const res = await owner.api.get('/api/v2/organizations/no-such-org/reserved-tag-keys').expect(404);
    expect(res.body).toEqual({ errors: [{ status: '404', title: 'not found' }] });
    await owner.api.post('/api/v2/organizations/no-such-org/reserved-tag-keys', body('x', true)).expect(404);
  });

  it('answers 404 for a key of an organization the caller does not belong to', async () => {
    const stranger = await createUser(t, admin);
    const otherOrg = await createOrganization(stranger);
    const foreign = await reserveTagKey(stranger, otherOrg, 'foreign', true);
    await owner.api.get(`/api/v2/reserved-tag-keys/${foreign}`).expect(404);
    await owner.api.patch(`/api/v2/reserved-tag-keys/${foreign}`, body('mine-now', false)).expect(404);
    await owner.api.patch(`/api/v2/reserved-tags/${foreign}`, body('mine-now', false)).expect(404);
    await owner.api.delete(`/api/v2/reserved-tag-keys/${foreign}`).expect(404);
    await owner.api.delete(`/api/v2/reserved-tags/${foreign}`).expect(404);
    await owner.api.get(`/api/v2/organizations/${otherOrg}/reserved-tag-keys`).expect(404);
    const still = await stranger.api.get(`/api/v2/reserved-tag-keys/${foreign}`).expect(200);
    expect(still.body.data.attributes).toMatchObject({ key: 'foreign', 'disable-overrides': true });
  });

  it('accepts application/json as well as the JSON:API media type', async () => {
    const res = await owner.api
      .post(listPath(), undefined)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(body('plain-json', false)))
      .expect(201);
    expect(res.headers['content-type']).toContain(JSONAPI);
  });
});

describe('reserved tag keys pagination', () => {
  let t: TestApp;
  let owner: Actor;
  let org: string;

  beforeAll(async () => {
    ({ t, owner, org } = await startWithOwnedOrganization());
    for (let batch = 0; batch < 10; batch++) {
      await Promise.all(
        Array.from({ length: 10 }, (_, j) => batch * 10 + j).map((i) =>
          reserveTagKey(owner, org, `key-${String(i).padStart(3, '0')}`, i % 2 === 0),
        ),
      );
    }
  }, 60_000);
  afterAll(() => t.close());

  it('pages 100 keys in 5 pages of 20 by default, in key order', async () => {
    const seen: string[] = [];
    for (let n = 1; n <= 5; n++) {
      const path = `/api/v2/organizations/${org}/reserved-tag-keys${n > 1 ? `?page[number]=${n}` : ''}`;
      const res = await owner.api.get(path).expect(200);
      expectPagination(res.body, {
        current: n,
        size: 20,
        prev: n > 1 ? n - 1 : null,
        next: n < 5 ? n + 1 : null,
        pages: 5,
        count: 100,
      });
      const base = `${t.origin}/api/v2/organizations/${org}/reserved-tag-keys?page%5Bnumber%5D=`;
      expect(res.body.links).toEqual({
        self: `${base}${n}&page%5Bsize%5D=20`,
        first: `${base}1&page%5Bsize%5D=20`,
        prev: n > 1 ? `${base}${n - 1}&page%5Bsize%5D=20` : null,
        next: n < 5 ? `${base}${n + 1}&page%5Bsize%5D=20` : null,
        last: `${base}5&page%5Bsize%5D=20`,
      });
      expect(res.body.data).toHaveLength(20);
      seen.push(...res.body.data.map((k: { attributes: { key: string } }) => k.attributes.key));
    }
    expect(seen).toEqual(Array.from({ length: 100 }, (_, i) => `key-${String(i).padStart(3, '0')}`));
  });

  it('honours page[size] and answers an empty page past the end with totals intact', async () => {
    const res = await owner.api
      .get(`/api/v2/organizations/${org}/reserved-tag-keys?page[size]=30&page[number]=4`)
      .expect(200);
    expect(res.body.data).toHaveLength(10);
    expectPagination(res.body, { current: 4, size: 30, prev: 3, next: null, pages: 4, count: 100 });
    const past = await owner.api
      .get(`/api/v2/organizations/${org}/reserved-tag-keys?page[number]=9`)
      .expect(200);
    expect(past.body.data).toEqual([]);
    expectPagination(past.body, { current: 9, size: 20, prev: 5, next: null, pages: 5, count: 100 });
  });

  it('refuses page[size] above 100 with 422', async () => {
    const res = await owner.api
      .get(`/api/v2/organizations/${org}/reserved-tag-keys?page[size]=101`)
      .expect(422);
    expect(res.body.errors[0]).toMatchObject({
      detail: 'page[size] must be between 1 and 100',
      source: { parameter: 'page[size]' },
    });
  });
});

import {
  Actor,
  createOrganization,
  createUser,
  expectPagination,
  idOf,
  ISO_MILLIS,
  memberWith,
  startWithOwnedOrganization,
} from '../helpers/fixtures';
import { TestApp } from '../helpers/test-app';
import { generateSigningKey, SigningKey } from './registry-helpers';

const KEYS = '/api/registry/private/v2/gpg-keys';

describe('private registry GPG keys', () => {
  let t: TestApp;
  let admin: Actor;
  let owner: Actor;
  let org: string;
  let keys: SigningKey[];

  beforeAll(async () => {
    ({ t, admin, owner, org } = await startWithOwnedOrganization());
    keys = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => generateSigningKey(`k${i}`)));
  });
  afterAll(() => t.close());

  const create = (actor: Actor, namespace: string, armor: unknown, type = 'gpg-keys') =>
    actor.api.post(KEYS, { data: { type, attributes: { namespace, 'ascii-armor': armor } } });

  it('stores a public key, reading its key id, with the full resource shape', async () => {
    const res = await create(owner, org, keys[0].publicKey).expect(201);
    const expected = {
      id: expect.stringMatching(idOf('gpgkey')),
      type: 'gpg-keys',
      attributes: {
        'ascii-armor': keys[0].publicKey,
        'created-at': expect.stringMatching(ISO_MILLIS),
        'key-id': keys[0].keyId,
        namespace: org,
        source: '',
        'source-url': null,
        'trust-signature': '',
        'updated-at': expect.stringMatching(ISO_MILLIS),
      },
      links: { self: `${KEYS}/${org}/${keys[0].keyId}` },
    };
    expect(res.body).toEqual({ data: expected });
    expect(res.body.data.attributes['key-id']).toMatch(/^[0-9A-F]{16}$/);
    const shown = await owner.api.get(`${KEYS}/${org}/${keys[0].keyId}`).expect(200);
    expect(shown.body).toEqual(res.body);
    await owner.api.get(`${KEYS}/${org}/${keys[0].keyId.toLowerCase()}`).expect(200);
  });

  it.each([
    ['text that is not a key', 'hello', 'Ascii armor is not a valid ASCII-armored OpenPGP public key'],
    [
      'a damaged armored block',
      '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nAAAA\n-----END PGP PUBLIC KEY BLOCK-----',
      'Ascii armor is not a valid ASCII-armored OpenPGP public key',
    ],
  ])('refuses %s with 422', async (_, armor, detail) => {
    const res = await create(owner, org, armor).expect(422);
    expect(res.body.errors).toEqual([
      {
        status: '422',
        title: 'invalid attribute',
        detail,
        source: { pointer: '/data/attributes/ascii-armor' },
      },
    ]);
  });

  it('refuses a private key rather than storing a secret', async () => {
    const res = await create(owner, org, keys[1].privateKey).expect(422);
    expect(res.body.errors[0].detail).toBe('Ascii armor must be a public key, not a private key');
  });

  it('requires a namespace and an armored key', async () => {
    const res = await owner.api.post(KEYS, { data: { type: 'gpg-keys', attributes: {} } }).expect(422);
    expect(res.body.errors.map((e: { detail: string }) => e.detail)).toEqual([
      "Namespace can't be blank",
      "Ascii armor can't be blank",
    ]);
    await create(owner, org, keys[1].publicKey, 'keys').expect(409);
  });

  it('refuses the same key twice in a namespace but accepts it in another', async () => {
    const other = await createOrganization(owner);
    await create(owner, org, keys[2].publicKey).expect(201);
    const res = await create(owner, org, keys[2].publicKey).expect(422);
    expect(res.body.errors[0]).toMatchObject({
      code: 'GPG_KEY_TAKEN',
      detail: `Key id ${keys[2].keyId} has already been taken in namespace ${org}`,
    });
    await create(owner, other, keys[2].publicKey).expect(201);
  });

  it('lets only owners and manage-providers teams add keys; others see 404', async () => {
    const reader = await memberWith(t, admin, owner, org, []);
    const manager = await memberWith(t, admin, owner, org, ['manage-providers']);
    const outsider = await createUser(t, admin);
    await create(reader, org, keys[3].publicKey).expect(404);
    await create(outsider, org, keys[3].publicKey).expect(404);
    await create(owner, 'no-such-org', keys[3].publicKey).expect(404);
    await create(manager, org, keys[3].publicKey).expect(201);
    await reader.api.get(`${KEYS}/${org}/${keys[3].keyId}`).expect(200);
    await outsider.api.get(`${KEYS}/${org}/${keys[3].keyId}`).expect(404);
  });

  describe('list', () => {
    let a: string;
    let b: string;

    beforeAll(async () => {
      a = await createOrganization(owner);
      b = await createOrganization(owner);
      await create(owner, a, keys[0].publicKey).expect(201);
      await create(owner, a, keys[1].publicKey).expect(201);
      await create(owner, b, keys[4].publicKey).expect(201);
    });

    it('requires filter[namespace]', async () => {
      for (const query of ['', '?filter%5Bnamespace%5D=', '?filter%5Bnamespace%5D=%20,']) {
        const res = await owner.api.get(`${KEYS}${query}`).expect(400);
        expect(res.body.errors).toEqual([
          {
            status: '400',
            title: 'bad request',
            detail: 'filter[namespace] is required',
            source: { parameter: 'filter[namespace]' },
          },
        ]);
      }
    });

    it('lists the keys of every named namespace, paginated', async () => {
      const res = await owner.api.get(`${KEYS}?filter%5Bnamespace%5D=${a},${b}&page%5Bsize%5D=2`).expect(200);
      expect(res.body.data.map((k: { attributes: { 'key-id': string } }) => k.attributes['key-id'])).toEqual([
        keys[0].keyId,
        keys[1].keyId,
      ]);
      expectPagination(res.body, { current: 1, size: 2, prev: null, next: 2, pages: 2, count: 3 });
      const next = await owner.api.get(
        `${KEYS}?filter%5Bnamespace%5D=${a},${b}&page%5Bnumber%5D=2&page%5Bsize%5D=2`,
      );
      expect(
        next.body.data.map((k: { attributes: { namespace: string } }) => k.attributes.namespace),
      ).toEqual([b]);
    });

    it('skips namespaces the caller cannot see, and answers 404 when it can see none', async () => {
      const stranger = await createUser(t, admin);
      const strangerOrg = await createOrganization(stranger);
      const res = await stranger.api.get(`${KEYS}?filter%5Bnamespace%5D=${a},${strangerOrg}`).expect(200);
      expect(res.body.data).toEqual([]);
      await stranger.api.get(`${KEYS}?filter%5Bnamespace%5D=${a},${b}`).expect(404);
    });
  });

  it('moves a key to another namespace the caller manages', async () => {
    const from = await createOrganization(owner);
    const to = await createOrganization(owner);
    const created = await create(owner, from, keys[5].publicKey).expect(201);
    const res = await owner.api
      .patch(`${KEYS}/${from}/${keys[5].keyId}`, {
        data: { type: 'gpg-keys', attributes: { namespace: to } },
      })
      .expect(200);
    expect(res.body.data).toEqual({
      ...created.body.data,
      attributes: {
        ...created.body.data.attributes,
        namespace: to,
        'updated-at': expect.stringMatching(ISO_MILLIS),
      },
      links: { self: `${KEYS}/${to}/${keys[5].keyId}` },
    });
    await owner.api.get(`${KEYS}/${from}/${keys[5].keyId}`).expect(404);
    await owner.api.get(`${KEYS}/${to}/${keys[5].keyId}`).expect(200);

    const foreign = await createOrganization(await createUser(t, admin));
    await owner.api
      .patch(`${KEYS}/${to}/${keys[5].keyId}`, {
        data: { type: 'gpg-keys', attributes: { namespace: foreign } },
      })
      .expect(404);
    const blank = await owner.api
      .patch(`${KEYS}/${to}/${keys[5].keyId}`, { data: { type: 'gpg-keys', attributes: {} } })
      .expect(422);
    expect(blank.body.errors[0].detail).toBe("Namespace can't be blank");
    await create(owner, from, keys[5].publicKey).expect(201);
    const clash = await owner.api
      .patch(`${KEYS}/${to}/${keys[5].keyId}`, {
        data: { type: 'gpg-keys', attributes: { namespace: from } },
      })
      .expect(422);
    expect(clash.body.errors[0].detail).toBe(
      `Key id ${keys[5].keyId} has already been taken in namespace ${from}`,
    );
  });

  it('deletes a key with 204; readers cannot', async () => {
    const ns = await createOrganization(owner);
    await create(owner, ns, keys[0].publicKey).expect(201);
    const reader = await memberWith(t, admin, owner, ns, []);
    await reader.api.delete(`${KEYS}/${ns}/${keys[0].keyId}`).expect(404);
    const res = await owner.api.delete(`${KEYS}/${ns}/${keys[0].keyId}`).expect(204);
    expect(res.text).toBe('');
    await owner.api.get(`${KEYS}/${ns}/${keys[0].keyId}`).expect(404);
    await owner.api.delete(`${KEYS}/${ns}/${keys[0].keyId}`).expect(404);
  });
});

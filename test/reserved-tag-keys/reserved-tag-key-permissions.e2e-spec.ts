import {
  Actor,
  createUser,
  memberWith,
  createOrganizationToken,
  reserveTagKey,
  startWithOwnedOrganization,
} from '../helpers/fixtures';
import { client, TestApp } from '../helpers/test-app';

const body = (key: string, disableOverrides: boolean) => ({
  data: { type: 'reserved-tag-keys', attributes: { key, 'disable-overrides': disableOverrides } },
});

describe('reserved tag key permissions', () => {
  let t: TestApp;
  let admin: Actor;
  let owner: Actor;
  let org: string;
  let existing: string;

  beforeAll(async () => {
    ({ t, admin, owner, org } = await startWithOwnedOrganization());
    existing = await reserveTagKey(owner, org, 'existing', true);
  });
  afterAll(() => t.close());

  const create = (actor: Actor, key: string) =>
    actor.api.post(`/api/v2/organizations/${org}/reserved-tag-keys`, body(key, false));

  it('lets the organization token write and read', async () => {
    const token = await createOrganizationToken(t, owner, org);
    const created = await create(token, 'by-org-token').expect(201);
    const id = created.body.data.id;
    await token.api.patch(`/api/v2/reserved-tag-keys/${id}`, body('by-org-token', true)).expect(200);
    await token.api.get(`/api/v2/organizations/${org}/reserved-tag-keys`).expect(200);
    await token.api.delete(`/api/v2/reserved-tags/${id}`).expect(204);
  });

  it('lets a plain member read but answers 404 to every write', async () => {
    const member = await memberWith(t, admin, owner, org, ['manage-workspaces', 'manage-projects']);
    const list = await member.api.get(`/api/v2/organizations/${org}/reserved-tag-keys`).expect(200);
    expect(list.body.data.map((k: { id: string }) => k.id)).toContain(existing);
    await member.api.get(`/api/v2/reserved-tag-keys/${existing}`).expect(200);
    const refused = await create(member, 'by-member').expect(404);
    expect(refused.body).toEqual({ errors: [{ status: '404', title: 'not found' }] });
    await member.api.patch(`/api/v2/reserved-tag-keys/${existing}`, body('existing', false)).expect(404);
    await member.api.patch(`/api/v2/reserved-tags/${existing}`, body('existing', false)).expect(404);
    await member.api.delete(`/api/v2/reserved-tag-keys/${existing}`).expect(404);
    const after = await owner.api.get(`/api/v2/reserved-tag-keys/${existing}`).expect(200);
    expect(after.body.data.attributes['disable-overrides']).toBe(true);
  });

  it('answers 404 to an outsider for reads and writes alike', async () => {
    const outsider = await createUser(t, admin);
    await outsider.api.get(`/api/v2/organizations/${org}/reserved-tag-keys`).expect(404);
    await outsider.api.get(`/api/v2/reserved-tag-keys/${existing}`).expect(404);
    await create(outsider, 'by-outsider').expect(404);
    await outsider.api.patch(`/api/v2/reserved-tag-keys/${existing}`, body('existing', false)).expect(404);
    await outsider.api.delete(`/api/v2/reserved-tags/${existing}`).expect(404);
  });

  it('answers 401 without a token', async () => {
    const res = await client(t).get(`/api/v2/organizations/${org}/reserved-tag-keys`).expect(401);
    expect(res.body).toEqual({ errors: [{ status: '401', title: 'unauthorized' }] });
  });
});

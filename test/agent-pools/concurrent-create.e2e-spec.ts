import { Actor, createWorkspace, startWithOwnedOrganization, unique } from '../helpers/fixtures';
import { NAME_TAKEN_422 } from '../helpers/shapes';
import { TestApp } from '../helpers/test-app';
import { poolBody } from './helpers';

describe('agent pools created concurrently', () => {
  let t: TestApp;
  let owner: Actor;
  let org: string;

  beforeAll(async () => {
    ({ t, owner, org } = await startWithOwnedOrganization());
  });
  afterAll(() => t.close());

  const create = (name: string, allowed?: string[]) =>
    owner.api.post(
      `/api/v2/organizations/${org}/agent-pools`,
      poolBody({ name, 'organization-scoped': allowed === undefined }, allowed),
    );

  it('creates eleven pools with different names at once, every one 201', async () => {
    const names = Array.from({ length: 11 }, (_, i) => unique(`burst-${i}`));
    const responses = await Promise.all(names.map((name) => create(name)));
    expect(responses.map((r) => r.status)).toEqual(names.map(() => 201));
    expect(responses.map((r) => r.body.data.attributes.name)).toEqual(names);
    const list = await owner.api.get(`/api/v2/organizations/${org}/agent-pools?page[size]=100`).expect(200);
    const listed = new Set(list.body.data.map((d: { attributes: { name: string } }) => d.attributes.name));
    for (const name of names) expect(listed.has(name)).toBe(true);
  });

  it('creates eleven pools allowing the same workspaces at once, every one 201', async () => {
    const allowed = [await createWorkspace(owner, org), await createWorkspace(owner, org)];
    const names = Array.from({ length: 11 }, (_, i) => unique(`scoped-${i}`));
    const responses = await Promise.all(names.map((name) => create(name, allowed)));
    expect(responses.map((r) => r.status)).toEqual(names.map(() => 201));
    for (const r of responses) {
      expect(r.body.data.attributes['organization-scoped']).toBe(false);
      expect(r.body.data.relationships['allowed-workspaces'].data).toEqual(
        expect.arrayContaining(allowed.map((id) => ({ type: 'workspaces', id }))),
      );
    }
  });

  it('answers one of several concurrent creates of the same name with 201, the others with 422', async () => {
    const name = unique('same');
    const responses = await Promise.all(Array.from({ length: 6 }, () => create(name)));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 422, 422, 422, 422, 422]);
    for (const r of responses.filter((x) => x.status === 422)) {
      expect(r.body).toEqual(NAME_TAKEN_422);
    }
  });
});

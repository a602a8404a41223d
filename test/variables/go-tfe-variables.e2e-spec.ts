import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createProject,
  createUser,
  createWorkspace,
} from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';

/**
 * The request documents of the official Go client's Variables, VariableSets and
 * VariableSetVariables calls (go-tfe v1.go, google/jsonapi marshalling: a relation without
 * `omitempty` left nil is `{"data": null}`, a related workspace is the whole struct), and the
 * fields its decoder reads back.
 */
describe('variables, as the official Go client sends and reads them', () => {
  let t: TestApp;
  let owner: Actor;
  let org: string;

  beforeAll(async () => {
    t = await startApp();
    const admin = await bootstrapAdmin(t);
    owner = await createUser(t, admin);
    org = await createOrganization(owner);
  });
  afterAll(() => t.close());

  /** A workspace as google/jsonapi marshals a `*Workspace` inside a relation: every field. */
  const fullWorkspace = (id: string) => ({
    type: 'workspaces',
    id,
    attributes: { name: '', 'auto-apply': false, locked: false, 'resource-count': 0, permissions: null },
    relationships: { organization: { data: null }, project: { data: null } },
  });

  it('VariableSets.Create with a nil parent, ApplyToWorkspaces, UpdateWorkspaces and ListForWorkspace', async () => {
    const ws = await createWorkspace(owner, org);
    // VariableSetCreateOptions: name, description, global; parent nil (no omitempty).
    const created = await owner.api
      .post(`/api/v2/organizations/${org}/varsets`, {
        data: {
          type: 'varsets',
          attributes: { name: 'go-created', description: 'from go', global: false },
          relationships: { parent: { data: null } },
        },
      })
      .expect(201);
    const id = created.body.data.id as string;
    // What VariableSet decodes: name, description, global, priority; organization; parent (poly).
    expect(created.body.data.attributes).toMatchObject({
      name: 'go-created',
      description: 'from go',
      global: false,
      priority: false,
    });
    expect(created.body.data.relationships.parent).toEqual({ data: { type: 'organizations', id: org } });
    // ApplyToWorkspaces: a bare array document of whole workspace structs.
    await owner.api
      .post(`/api/v2/varsets/${id}/relationships/workspaces`, { data: [fullWorkspace(ws)] })
      .expect(204);
    // UpdateWorkspaces: PATCH ?include=workspaces with global false and the workspaces relation.
    const updated = await owner.api
      .patch(`/api/v2/varsets/${id}?include=workspaces`, {
        data: {
          type: 'varsets',
          attributes: { global: false },
          relationships: { workspaces: { data: [] } },
        },
      })
      .expect(200);
    expect(updated.body.data.relationships.workspaces).toEqual({ data: [] });
    await owner.api
      .post(`/api/v2/varsets/${id}/relationships/workspaces`, { data: [fullWorkspace(ws)] })
      .expect(204);
    const listed = await owner.api.get(`/api/v2/workspaces/${ws}/varsets?include=`).expect(200);
    expect(listed.body.data.map((d: { id: string }) => d.id)).toEqual([id]);
  });

  it('VariableSets.Create with a project parent; ApplyToProjects; ListForProject', async () => {
    const prj = await createProject(owner, org);
    const created = await owner.api
      .post(`/api/v2/organizations/${org}/varsets`, {
        data: {
          type: 'varsets',
          attributes: { name: 'go-project', global: false },
          relationships: { parent: { data: { type: 'projects', id: prj } } },
        },
      })
      .expect(201);
    const id = created.body.data.id as string;
    await owner.api
      .post(`/api/v2/varsets/${id}/relationships/projects`, {
        data: [
          {
            type: 'projects',
            id: prj,
            attributes: { name: '' },
            relationships: { organization: { data: null } },
          },
        ],
      })
      .expect(204);
    const listed = await owner.api.get(`/api/v2/projects/${prj}/varsets`).expect(200);
    expect(listed.body.data.map((d: { id: string }) => d.id)).toEqual([id]);
  });

  it('Variables.Create, Update (omitempty pointers), ListAll; VariableSetVariables.Create and Update without a category', async () => {
    const ws = await createWorkspace(owner, org);
    const v = await owner.api
      .post(`/api/v2/workspaces/${ws}/vars`, {
        data: {
          type: 'vars',
          attributes: { key: 'region', value: 'eu', category: 'terraform', sensitive: false },
        },
      })
      .expect(201);
    const varId = v.body.data.id as string;
    const updated = await owner.api
      .patch(`/api/v2/workspaces/${ws}/vars/${varId}`, {
        data: { type: 'vars', attributes: { value: 'us' } },
      })
      .expect(200);
    // What Variable decodes: key, value, description, category, hcl, sensitive, version-id; configurable.
    expect(updated.body.data.attributes).toEqual({
      key: 'region',
      value: 'us',
      description: '',
      category: 'terraform',
      hcl: false,
      sensitive: false,
      'version-id': expect.any(String),
    });
    expect(updated.body.data.relationships.configurable.data).toEqual({ id: ws, type: 'workspaces' });
    const set = await owner.api
      .post(`/api/v2/organizations/${org}/varsets`, {
        data: { type: 'varsets', attributes: { name: 'go-global', global: true } },
      })
      .expect(201);
    const setId = set.body.data.id as string;
    const sv = await owner.api
      .post(`/api/v2/varsets/${setId}/relationships/vars`, {
        data: { type: 'vars', attributes: { key: 'zone', value: 'a', category: 'terraform' } },
      })
      .expect(201);
    await owner.api
      .patch(`/api/v2/varsets/${setId}/relationships/vars/${sv.body.data.id}`, {
        data: { type: 'vars', attributes: { key: 'zone', value: 'b', hcl: false, sensitive: false } },
      })
      .expect(200);
    const all = await owner.api.get(`/api/v2/workspaces/${ws}/all-vars`).expect(200);
    expect(
      all.body.data.map((d: { attributes: { key: string; value: string } }) => [
        d.attributes.key,
        d.attributes.value,
      ]),
    ).toEqual([
      ['region', 'us'],
      ['zone', 'b'],
    ]);
  });
});

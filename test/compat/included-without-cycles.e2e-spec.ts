import { Actor, createWorkspace, startWithOwnedOrganization, unique } from '../helpers/fixtures';
import { TestApp } from '../helpers/test-app';

jest.setTimeout(60_000);

interface Linkage {
  id: string;
  type: string;
}
interface Resource extends Linkage {
  relationships?: Record<string, { data?: Linkage | Linkage[] | null }>;
}

/**
 * Whether following linkages from `start` through `included` ever comes back to a resource on the
 * path: the official Go client decodes included resources so, recursively, and dies of a stack
 * overflow on such a loop (hashicorp/go-tfe#1020).
 */
function hasLoop(start: Resource, included: Resource[]): boolean {
  const byKey = new Map(included.map((r) => [`${r.type}/${r.id}`, r]));
  const visit = (r: Resource, path: Set<string>): boolean =>
    Object.values(r.relationships ?? {}).some((rel) => {
      const data = rel.data;
      const links = data === null || data === undefined ? [] : Array.isArray(data) ? data : [data];
      return links.some((l) => {
        const key = `${l.type}/${l.id}`;
        const next = byKey.get(key);
        if (!next) return false;
        if (path.has(key)) return true;
        return visit(next, new Set([...path, key]));
      });
    });
  return visit(start, new Set());
}

/**
 * go-tfe's `Workspaces.ReadWithOptions` and `List` with `WSOrganization` and `WSProject` ask for
 * `include=organization,project`. A workspace in its organization's default project would give an
 * included organization linking that project and the project linking the organization back.
 */
describe('workspace include=organization,project decodes without a loop', () => {
  let t: TestApp;
  let owner: Actor;
  let org: string;
  let name: string;
  let ws: string;

  beforeAll(async () => {
    ({ t, owner, org } = await startWithOwnedOrganization());
    name = unique('ws');
    ws = await createWorkspace(owner, org, name);
  });
  afterAll(() => t.close());

  it('includes both; the included organization leaves its default-project linkage out', async () => {
    const res = await owner.api
      .get(`/api/v2/organizations/${org}/workspaces/${name}?include=organization%2Cproject`)
      .expect(200);
    const organization = await owner.api.get(`/api/v2/organizations/${org}`).expect(200);
    const projectId = res.body.data.relationships.project.data.id as string;
    expect(organization.body.data.relationships['default-project']).toEqual({
      data: { id: projectId, type: 'projects' },
    });
    const project = await owner.api.get(`/api/v2/projects/${projectId}`).expect(200);
    const withoutDefault = { ...organization.body.data.relationships };
    delete withoutDefault['default-project'];
    expect(res.body.included).toEqual([
      project.body.data,
      { ...organization.body.data, relationships: withoutDefault },
    ]);
    expect(hasLoop(res.body.data, res.body.included)).toBe(false);
  });

  it('the same on the list and by id', async () => {
    const byId = await owner.api.get(`/api/v2/workspaces/${ws}?include=project,organization`).expect(200);
    expect(hasLoop(byId.body.data, byId.body.included)).toBe(false);
    const list = await owner.api
      .get(`/api/v2/organizations/${org}/workspaces?include=organization,project`)
      .expect(200);
    expect(list.body.included).toHaveLength(2);
    for (const w of list.body.data) expect(hasLoop(w, list.body.included)).toBe(false);
  });

  it('include=organization alone still links the default project', async () => {
    const res = await owner.api.get(`/api/v2/workspaces/${ws}?include=organization`).expect(200);
    const organization = await owner.api.get(`/api/v2/organizations/${org}`).expect(200);
    expect(res.body.included).toEqual([organization.body.data]);
  });
});

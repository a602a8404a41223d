/*
 * A small client written only against the types openapi-typescript generates from /docs-json
 * (`./plinth-api`, made by typed-client.e2e-spec.ts next to a copy of this file). It must
 * type-check under `strict`, and it runs against a live server: create an organization, a
 * workspace and a policy set, then read them back with `include`. The `@ts-expect-error` lines
 * must stay errors: a generated client refuses at compile time what the server answers 422.
 */
import type { paths } from './plinth-api';

const JSONAPI = 'application/vnd.api+json';
type Body<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  requestBody?: { content: { 'application/vnd.api+json': infer B } };
}
  ? B
  : never;
type Answer<P extends keyof paths, M extends keyof paths[P], S extends number> = paths[P][M] extends {
  responses: { [K in S]: { content: { 'application/vnd.api+json': infer A } } };
}
  ? A
  : never;

type CreateOrganization = Body<'/api/v2/organizations', 'post'>;
type CreateWorkspace = Body<'/api/v2/organizations/{org}/workspaces', 'post'>;
type CreatePolicySet = Body<'/api/v2/organizations/{org}/policy-sets', 'post'>;
type CreatedOrganization = Answer<'/api/v2/organizations', 'post', 201>;
type CreatedWorkspace = Answer<'/api/v2/organizations/{org}/workspaces', 'post', 201>;
type CreatedPolicySet = Answer<'/api/v2/organizations/{org}/policy-sets', 'post', 201>;
type ShownPolicySet = Answer<'/api/v2/policy-sets/{id}', 'get', 200>;
type ListedWorkspaces = Answer<'/api/v2/organizations/{org}/workspaces', 'get', 200>;
type Included = NonNullable<ShownPolicySet['included']>[number];

// Refused at compile time, as the server would refuse them with a 422 or 403:
// @ts-expect-error a policy set without `name`
const noName: CreatePolicySet = { data: { type: 'policy-sets', attributes: { description: 'x' } } };
// @ts-expect-error a type the route does not accept
const wrongType: CreateWorkspace = { data: { type: 'projects', attributes: { name: 'w' } } };
void noName;
void wrongType;

async function call<T>(base: string, token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': JSONAPI, Accept: JSONAPI },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

export interface Outcome {
  organization: string;
  workspaceName: string;
  policySetName: string;
  includedWorkspaceNames: string[];
  listedNames: string[];
}

export async function run(base: string, token: string, name: string): Promise<Outcome> {
  const org: CreateOrganization = {
    data: { type: 'organizations', attributes: { name, email: `${name}@example.com` } },
  };
  const createdOrg = await call<CreatedOrganization>(base, token, 'POST', '/api/v2/organizations', org);
  const orgName: string = createdOrg.data.attributes.name ?? name;

  const ws: CreateWorkspace = { data: { type: 'workspaces', attributes: { name: 'typed-ws' } } };
  const workspace = await call<CreatedWorkspace>(base, token, 'POST', `/api/v2/organizations/${orgName}/workspaces`, ws);

  const set: CreatePolicySet = {
    data: {
      type: 'policy-sets',
      attributes: { name: 'typed-set', description: 'made by a generated client' },
      relationships: { workspaces: { data: [{ type: 'workspaces', id: workspace.data.id }] } },
    },
  };
  const created = await call<CreatedPolicySet>(base, token, 'POST', `/api/v2/organizations/${orgName}/policy-sets`, set);

  const shown = await call<ShownPolicySet>(base, token, 'GET', `/api/v2/policy-sets/${created.data.id}?include=workspaces`);
  const included: Included[] = shown.included ?? [];
  const includedWorkspaceNames: string[] = [];
  for (const resource of included) {
    // `included` is a union of its member types, told apart by `type`.
    if (resource.type === 'workspaces') {
      const wsName: string | undefined = resource.attributes.name;
      if (wsName) includedWorkspaceNames.push(wsName);
      // @ts-expect-error a workspace has no `policy-count`: the member type is known, not unknown
      void resource.attributes['policy-count'];
    }
  }
  const listed = await call<ListedWorkspaces>(base, token, 'GET', `/api/v2/organizations/${orgName}/workspaces?sort=-name`);
  const total: number | undefined = listed.meta.pagination['total-count'];
  void total;
  return {
    organization: orgName,
    workspaceName: workspace.data.attributes.name ?? '',
    policySetName: shown.data.attributes.name ?? '',
    includedWorkspaceNames,
    listedNames: listed.data.map((w) => w.attributes.name ?? ''),
  };
}

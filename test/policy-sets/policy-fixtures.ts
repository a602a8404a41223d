import { Actor, unique } from '../helpers/fixtures';

export interface PolicyInput {
  name?: string;
  kind?: 'framework_a' | 'framework_b';
  enforcementLevel?: string;
  query?: string;
}

/** Creates a policy (framework_a, advisory unless told) and returns its id. */
export async function createPolicy(actor: Actor, org: string, input: PolicyInput = {}): Promise<string> {
  const kind = input.kind ?? 'framework_a';
  const attributes: Record<string, unknown> = {
    name: input.name ?? unique('pol'),
    kind,
    'enforcement-level': input.enforcementLevel ?? 'advisory',
  };
  if (kind === 'framework_b') attributes.query = input.query ?? 'data.terraform.deny';
  const res = await actor.api
    .post(`/api/v2/organizations/${org}/policies`, { data: { type: 'policies', attributes } })
    .expect(201);
  return res.body.data.id;
}

/** Creates a policy set from attributes and relationships; returns the created resource. */
export async function createPolicySet(
  actor: Actor,
  org: string,
  attributes: Record<string, unknown> = {},
  relationships?: Record<string, unknown>,
): Promise<{ id: string; attributes: Record<string, unknown>; relationships: Record<string, unknown> }> {
  const res = await actor.api
    .post(`/api/v2/organizations/${org}/policy-sets`, {
      data: { type: 'policy-sets', attributes: { name: unique('set'), ...attributes }, relationships },
    })
    .expect(201);
  return res.body.data;
}

export const ids = (type: string, values: string[]) => ({ data: values.map((id) => ({ id, type })) });

/** Turns an organization into a free-edition one (site administrators only). */
export async function makeFree(admin: Actor, org: string): Promise<void> {
  await admin.api
    .patch(`/api/v2/organizations/${org}`, {
      data: { type: 'organizations', attributes: { edition: 'free' } },
    })
    .expect(200);
}

import { Actor } from '../helpers/fixtures';
import { createPolicy, createPolicySet, ids } from '../policy-sets/policy-fixtures';

/** A policy with its code uploaded; returns its id. */
export async function policyWithCode(
  actor: Actor,
  org: string,
  input: { name: string; kind?: 'framework_a' | 'framework_b'; level: string; code: string },
): Promise<string> {
  const id = await createPolicy(actor, org, {
    name: input.name,
    kind: input.kind,
    enforcementLevel: input.level,
  });
  await actor.api
    .put(`/api/v2/policies/${id}/upload`)
    .set('Content-Type', 'text/plain')
    .send(input.code)
    .expect(204);
  return id;
}

/** A set of the given policies, attached as `attach` says; returns its id. */
export async function setOf(
  actor: Actor,
  org: string,
  name: string,
  policyIds: string[],
  attach: {
    kind?: 'framework_a' | 'framework_b';
    global?: boolean;
    overridable?: boolean;
    projects?: string[];
    workspaces?: string[];
    exclusions?: string[];
  },
): Promise<string> {
  const set = await createPolicySet(
    actor,
    org,
    {
      name,
      kind: attach.kind ?? 'framework_a',
      global: attach.global ?? false,
      // framework_a sets may be overridable only when agent-enabled (the contract's rule).
      ...(attach.overridable ? { overridable: true } : {}),
      ...(attach.overridable && (attach.kind ?? 'framework_a') === 'framework_a'
        ? { 'agent-enabled': true }
        : {}),
    },
    {
      policies: ids('policies', policyIds),
      ...(attach.projects ? { projects: ids('projects', attach.projects) } : {}),
      ...(attach.workspaces ? { workspaces: ids('workspaces', attach.workspaces) } : {}),
      ...(attach.exclusions ? { 'workspace-exclusions': ids('workspaces', attach.exclusions) } : {}),
    },
  );
  return set.id;
}

export interface PolicyCheckResource {
  id: string;
  type: string;
  attributes: Record<string, unknown> & {
    status: string;
    result: Record<string, unknown> & { 'policy-sets': Record<string, unknown>[] };
  };
  relationships: Record<string, unknown>;
  links: Record<string, string>;
}

/** The run's one policy check, as go-tfe's PolicyChecks.List reads it. */
export async function checkOf(actor: Actor, runId: string): Promise<PolicyCheckResource> {
  const res = await actor.api.get(`/api/v2/runs/${runId}/policy-checks`).expect(200);
  expect(res.body.data).toHaveLength(1);
  return res.body.data[0] as PolicyCheckResource;
}

/** A policy as the check lists it under its set. */
export const policyOutcome = (
  name: string,
  level: string,
  status: 'passed' | 'failed' | 'pending',
  output: unknown = expect.any(String),
  extra: { query?: string | null; description?: string | null } = {},
) => ({
  policy_name: name,
  description: extra.description ?? null,
  enforcement_level: level,
  query: extra.query ?? null,
  status,
  output,
});

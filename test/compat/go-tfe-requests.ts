/**
 * Request documents exactly as the real service's official Go client sends them, recorded from its
 * own request builders against Plinth: github.com/hashicorp/go-tfe, the v1 package (`v1.go`) at
 * v2.4.0-2-g0fa6b099. Each builder names the go-tfe options struct that produced the body; only
 * the names and ids of the recording are parameters. Attribute order and the explicit `null`s are
 * the client's (google/jsonapi marshalling of `omitempty` pointers).
 */

const doc = (type: string, attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => ({
  data: { type, attributes, ...(relationships ? { relationships } : {}) },
});

export const goTfe = {
  /** OrganizationCreateOptions */
  organizationCreate: (name: string) => doc('organizations', { email: 'ops@example.com', name }),

  /** AdminTerraformVersionCreateOptions */
  terraformVersionCreate: (version: string) =>
    doc('terraform-versions', {
      beta: false,
      deprecated: false,
      enabled: true,
      official: true,
      sha: 'a'.repeat(64),
      url: `https://releases.example.com/tool_${version}_linux_amd64.zip`,
      version,
    }),

  /** AdminTerraformVersionUpdateOptions */
  terraformVersionUpdate: () => doc('terraform-versions', { deprecated: true, 'deprecated-reason': 'old' }),

  /** AdminOPAVersionCreateOptions */
  opaVersionCreate: (version: string) =>
    doc('opa-versions', {
      enabled: true,
      official: true,
      sha: 'b'.repeat(64),
      url: `https://releases.example.com/opa_${version}`,
      version,
    }),

  /** AdminOPAVersionUpdateOptions */
  opaVersionUpdate: () => doc('opa-versions', { beta: true }),

  /** WorkspaceCreateOptions with TerraformVersion */
  workspaceCreate: (name: string, terraformVersion: string) =>
    doc('workspaces', { name, 'terraform-version': terraformVersion }),

  /** WorkspaceUpdateOptions with TerraformVersion */
  workspaceUpdate: (terraformVersion: string) =>
    doc('workspaces', { description: 'pinned', 'terraform-version': terraformVersion }),

  /** PolicyCreateOptions, Kind Sentinel */
  sentinelPolicyCreate: (name: string) =>
    doc('policies', { 'enforcement-level': 'soft-mandatory', kind: 'sentinel', name }),

  /** PolicyCreateOptions, Kind OPA */
  opaPolicyCreate: (name: string) =>
    doc('policies', { 'enforcement-level': 'mandatory', kind: 'opa', name, query: 'data.terraform.deny' }),

  /** PolicyCreateOptions with only the deprecated Enforce (clients before v1.52) */
  legacyPolicyCreate: (name: string) =>
    doc('policies', { enforce: [{ path: `${name}.sentinel`, mode: 'hard-mandatory' }], name }),

  /** PolicyUpdateOptions with only the deprecated Enforce */
  legacyPolicyUpdate: (name: string) =>
    doc('policies', { enforce: [{ path: `${name}.sentinel`, mode: 'advisory' }] }),

  /** PolicySetCreateOptions, Kind Sentinel */
  sentinelPolicySetCreate: (name: string) => doc('policy-sets', { kind: 'sentinel', name }),

  /** PolicyCreateOptions, Kind Sentinel, EnforcementLevel soft-mandatory */
  softPolicyCreate: (name: string) =>
    doc('policies', { 'enforcement-level': 'soft-mandatory', kind: 'sentinel', name }),

  /** PolicySetCreateOptions, Kind Sentinel, Global, Policies */
  globalPolicySetCreate: (name: string, policyIds: string[]) =>
    doc(
      'policy-sets',
      { global: true, kind: 'sentinel', name },
      { policies: { data: policyIds.map((id) => ({ type: 'policies', id })) } },
    ),

  /** PolicySetCreateOptions, Kind OPA, Overridable */
  opaPolicySetCreate: (name: string) => doc('policy-sets', { kind: 'opa', name, overridable: true }),

  /** RegistryProviderCreateOptions */
  registryProviderCreate: (org: string, name: string) =>
    doc('registry-providers', { name, namespace: org, 'registry-name': 'private' }),

  /** RegistryProviderVersionCreateOptions: the client leaves the type empty. */
  registryProviderVersionCreate: (version: string) =>
    doc('', { 'key-id': '32966F3FB5AC1129', protocols: ['5.0'], version }),

  /** AgentPoolCreateOptions */
  agentPoolCreate: (name: string) => doc('agent-pools', { name, 'organization-scoped': true }),

  /** AgentPoolUpdateOptions */
  agentPoolUpdate: (name: string) => doc('agent-pools', { name }),

  /** AgentTokenCreateOptions: go-tfe's type for agent tokens is `agent-tokens`. */
  agentTokenCreate: (description: string) => doc('agent-tokens', { description }),

  /** ConfigurationVersionCreateOptions with AutoQueueRuns false */
  configurationVersionCreate: () => doc('configuration-versions', { 'auto-queue-runs': false }),

  /** RunCreateOptions: with a ConfigurationVersion, or without one (`data: null`). */
  runCreate: (
    workspaceId: string,
    message: string,
    cvId: string | null,
    extra: Record<string, unknown> = {},
  ) =>
    doc(
      'runs',
      { ...extra, message },
      {
        'configuration-version': { data: cvId ? { type: 'configuration-versions', id: cvId } : null },
        workspace: { data: { type: 'workspaces', id: workspaceId } },
      },
    ),

  /** RunApplyOptions, RunDiscardOptions, RunCancelOptions: plain JSON, not JSON:API. */
  runAction: (comment: string) => ({ comment }),
};

/**
 * The archives go-tfe's ConfigurationVersions.Upload sends, packed by hashicorp/go-slug v0.16.8
 * (`slug.Pack(dir, w, true)`): a directory holding one `main.tf`, and an empty directory (only the
 * end-of-archive blocks, 39 bytes gzipped).
 */
export const GO_SLUG_CONFIGURATION = Buffer.from(
  'H4sIAAAAAAAE/+zPQQrCQAxG4aw9xZADyEuN9ThSpIJQK0w7IIh3F4WCuJPSRSHf5mdWk3dtLv12PMuSAGr3zwK/C47YfodZRWUIhh9qSSx51KQMY5OF2X+9y77jViK3w63kU5u0L113nJ6a9K7p8dysJCOEEMKfXgEAAP//pvhj7AAIAAA=',
  'base64',
);
export const GO_SLUG_EMPTY_DIRECTORY = Buffer.from(
  'H4sIAAAAAAAE/+zAgQAAAADCsPypA/k2IOsBAAD//y6vte8ABAAA',
  'base64',
);

/** The go-tfe `Content-Type` of every JSON:API request (`ContentTypeJSONAPI`). */
export const JSONAPI_CONTENT_TYPE = 'application/vnd.api+json';

/** Who is calling: resolved once per request from the bearer token. */
export type Principal =
  | { kind: 'user'; tokenId: string; userId: string; username: string; isSiteAdmin: boolean }
  | { kind: 'team'; tokenId: string; teamId: string; organizationId: string }
  | { kind: 'organization'; tokenId: string; organizationId: string };

/** The resource a principal acts as: who holds a lock, who overrode a check. */
export interface PrincipalResource {
  type: 'users' | 'teams' | 'organizations';
  id: string;
}

export function principalResource(p: Principal): PrincipalResource {
  switch (p.kind) {
    case 'user':
      return { type: 'users', id: p.userId };
    case 'team':
      return { type: 'teams', id: p.teamId };
    case 'organization':
      return { type: 'organizations', id: p.organizationId };
  }
}

export type OrganizationFlag =
  | 'manage-policies'
  | 'manage-workspaces'
  | 'manage-projects'
  | 'manage-providers'
  | 'manage-policy-overrides'
  | 'manage-variable-sets'
  | 'read-workspaces'
  | 'read-projects';

export const ORGANIZATION_FLAGS: readonly OrganizationFlag[] = [
  'manage-policies',
  'manage-workspaces',
  'manage-projects',
  'manage-providers',
  'manage-policy-overrides',
  'manage-variable-sets',
  'read-workspaces',
  'read-projects',
];

/** The team column holding each organization flag: the one mapping of flags to team rows. */
export const FLAG_PROPERTY = {
  'manage-policies': 'managePolicies',
  'manage-workspaces': 'manageWorkspaces',
  'manage-projects': 'manageProjects',
  'manage-providers': 'manageProviders',
  'manage-policy-overrides': 'managePolicyOverrides',
  'manage-variable-sets': 'manageVariableSets',
  'read-workspaces': 'readWorkspaces',
  'read-projects': 'readProjects',
} as const satisfies Record<OrganizationFlag, string>;

/** The flag columns of a team row (TeamEntity has each of them). */
export type TeamFlags = { [K in (typeof FLAG_PROPERTY)[OrganizationFlag]]: boolean };

export const WORKSPACE_ACCESS_LEVELS = ['read', 'plan', 'write', 'admin'] as const;
export type WorkspaceAccessLevel = (typeof WORKSPACE_ACCESS_LEVELS)[number];

/** What a principal may do in one organization. */
export interface OrganizationAccess {
  owner: boolean;
  flags: ReadonlySet<OrganizationFlag>;
  /** Teams through which the principal acts in the organization (empty for organization tokens). */
  teamIds: readonly string[];
}

/** Who is calling: resolved once per request from the bearer token. */
export type Principal =
  | { kind: 'user'; tokenId: string; userId: string; username: string; isSiteAdmin: boolean }
  | { kind: 'team'; tokenId: string; teamId: string; organizationId: string }
  | { kind: 'organization'; tokenId: string; organizationId: string };

export type OrganizationFlag =
  | 'manage-policies'
  | 'manage-workspaces'
  | 'manage-projects'
  | 'manage-providers'
  | 'read-workspaces'
  | 'read-projects';

export const ORGANIZATION_FLAGS: readonly OrganizationFlag[] = [
  'manage-policies',
  'manage-workspaces',
  'manage-projects',
  'manage-providers',
  'read-workspaces',
  'read-projects',
];

/** What a principal may do in one organization. */
export interface OrganizationAccess {
  owner: boolean;
  flags: ReadonlySet<OrganizationFlag>;
  /** Teams through which the principal acts in the organization (empty for organization tokens). */
  teamIds: readonly string[];
}

import { ResourceObject } from '../common/jsonapi/document';
import { bool, ResourceDoc } from '../common/jsonapi/openapi';
import { OrganizationEntity } from './entities/organization.entity';

/**
 * What an organization may use, as the real service's `entitlement-sets` (the official client's
 * `Entitlements`). Plinth has no plans or licences: a feature is entitled exactly when Plinth has
 * it, for every organization. The CLI reads `operations` (false would force local execution).
 */
export const ENTITLEMENTS: Readonly<Record<string, boolean>> = {
  agents: true, // agent pools, agent tokens, executors
  'audit-logging': true, // the audit trail
  'configuration-designer': false,
  'cost-estimation': false,
  'global-run-tasks': false,
  'module-tests-generation': false,
  operations: true, // remote runs: plan and apply by executors
  'private-module-registry': true,
  'private-policy-agents': false,
  'private-run-tasks': false,
  'private-vcs': false,
  'run-tasks': false,
  sentinel: true, // policy sets and policy checks, evaluated by executors
  sso: false,
  'state-storage': true,
  teams: true,
  'vcs-integrations': false,
  'waypoint-actions': false,
  'waypoint-templates-and-addons': false,
};

export const ENTITLEMENT_SET_DOC: ResourceDoc = {
  type: 'entitlement-sets',
  attributes: Object.fromEntries(
    Object.entries(ENTITLEMENTS).map(([name, on]) => [
      name,
      { ...bool(on ? 'Plinth has this feature' : 'Plinth does not have this feature'), example: on },
    ]),
  ),
  links: ['self'],
};

export function entitlementSetPath(name: string): string {
  return `/api/v2/organizations/${encodeURIComponent(name)}/entitlement-set`;
}

/** The id is the organization's internal id (`org-…`), as on the real service. */
export function serializeEntitlementSet(org: OrganizationEntity): ResourceObject {
  return {
    id: org.id,
    type: 'entitlement-sets',
    attributes: { ...ENTITLEMENTS },
    links: { self: entitlementSetPath(org.name) },
  };
}

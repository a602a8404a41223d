/** The two administrator catalogs; each name is both the path segment and the JSON:API type. */
export const CATALOGS = ['engine-versions', 'policy-engine-versions'] as const;

export type Catalog = (typeof CATALOGS)[number];

export function isCatalog(value: string): value is Catalog {
  return (CATALOGS as readonly string[]).includes(value);
}

/** `N.N.N` or `N.N.N-bundleName`, the same shape workspaces accept for `engine-version`. */
export const CATALOG_VERSION = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

/** The pin that follows the newest version and needs no catalog entry. */
export const LATEST = 'latest';

/** A path under `/api/v2/admin/` serving one catalog; the name is also the JSON:API type there. */
export interface CatalogRoute {
  catalog: Catalog;
  name: string;
}

/**
 * Every catalog is served under the contract's name and under the real service's name, so its
 * official clients work unchanged (docs/compatibility.md). One implementation behind all four.
 */
export const CATALOG_ROUTES = {
  engineVersions: { catalog: 'engine-versions', name: 'engine-versions' },
  policyEngineVersions: { catalog: 'policy-engine-versions', name: 'policy-engine-versions' },
  terraformVersions: { catalog: 'engine-versions', name: 'terraform-versions' },
  opaVersions: { catalog: 'policy-engine-versions', name: 'opa-versions' },
} as const satisfies Record<string, CatalogRoute>;

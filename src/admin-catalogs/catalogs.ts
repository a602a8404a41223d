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

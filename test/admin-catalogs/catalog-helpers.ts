import { Actor } from '../helpers/fixtures';

export const CATALOGS = ['engine-versions', 'policy-engine-versions'] as const;
export type CatalogName = (typeof CATALOGS)[number];

/** A valid SHA-256 checksum: 64 hexadecimal characters, varied by `seed`. */
export function sha(seed = 'a'): string {
  return seed.repeat(64).slice(0, 64);
}

export function downloadUrl(version: string): string {
  return `https://releases.example.com/engine/${version}/engine_${version}_linux_amd64.zip`;
}

export function versionBody(catalog: CatalogName, attributes: Record<string, unknown>) {
  return { data: { type: catalog, attributes } };
}

/** Adds `version` to a catalog as the administrator and returns its id. */
export async function createCatalogVersion(
  admin: Actor,
  catalog: CatalogName,
  version: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const res = await admin.api
    .post(
      `/api/v2/admin/${catalog}`,
      versionBody(catalog, { version, url: downloadUrl(version), sha: sha(), ...extra }),
    )
    .expect(201);
  return res.body.data.id as string;
}

import { ResourceObject } from '../common/jsonapi/document';
import { bool, int, nullableStr, ResourceDoc, str, timestamp } from '../common/jsonapi/openapi';
import { isoMillis } from '../common/jsonapi/timestamps';
import { CatalogRoute } from './catalogs';
import { ToolVersionView } from './tool-versions.service';

export function toolVersionDoc(route: CatalogRoute): ResourceDoc {
  return {
    type: route.name,
    attributes: {
      version: str('`N.N.N` or `N.N.N-bundleName`; unique in the catalog', { example: '1.9.2' }),
      url: str('http or https URL of the download', { format: 'uri' }),
      sha: str('SHA-256 of the download: 64 hexadecimal characters'),
      deprecated: bool('Default false'),
      'deprecated-reason': nullableStr('Null unless deprecated'),
      official: bool('Default false. Official versions cannot be deleted'),
      enabled: bool('Default true. A disabled version cannot be newly pinned'),
      beta: bool('Default false'),
      usage: int('Response only: resources pinned to this version'),
      'created-at': timestamp(),
    },
    links: ['self'],
  };
}

/** `name` is the route's: `engine-versions` or the real service's `terraform-versions`, … */
export function toolVersionPath(name: string, id: string): string {
  return `/api/v2/admin/${name}/${id}`;
}

/** An entry as the route `name` shows it (the type and the path are the route's name). */
export function serializeToolVersion(
  { entry, usage }: ToolVersionView,
  name: string = entry.catalog,
): ResourceObject {
  return {
    id: entry.id,
    type: name,
    attributes: {
      version: entry.version,
      url: entry.url,
      sha: entry.sha,
      deprecated: entry.deprecated,
      'deprecated-reason': entry.deprecatedReason,
      official: entry.official,
      enabled: entry.enabled,
      beta: entry.beta,
      usage,
      'created-at': isoMillis(entry.createdAt),
    },
    links: { self: toolVersionPath(name, entry.id) },
  };
}

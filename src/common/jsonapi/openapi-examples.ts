import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { ResourceDoc } from './openapi-schemas';

/*
 * Examples for the OpenAPI document: real-looking documents built from the same ResourceDoc as the
 * schemas, never "string" placeholders.
 */

const EXAMPLE_ID = '3yVQZvHzf5j3WRJ1';
const EXAMPLE_STRINGS: Record<string, string> = {
  name: 'production',
  email: 'platform-team@example.com',
  description: 'Guards the production workspaces',
  key: 'environment',
  value: 'production',
  version: '1.4.2',
  username: 'alice',
  os: 'linux',
  arch: 'amd64',
  shasum: '8d9f0ba2bd2f1cd8a5f5a1a3c4e6b7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4',
  filename: 'terraform-provider-aws_1.4.2_linux_amd64.zip',
  namespace: 'acme',
  'registry-name': 'private',
  status: 'active',
  token: 'AbCdEf0123456789.atlasv1.k9Zq2mXw',
};

/** The id prefix of each type (src/common/ids.ts `newId` calls), for example ids. */
const ID_PREFIXES: Record<string, string> = {
  agents: 'agent',
  'agent-pools': 'apool',
  'authentication-tokens': 'at',
  'configuration-versions': 'cv',
  'gpg-keys': 'gpgkey',
  policies: 'pol',
  'policy-sets': 'polset',
  'policy-set-versions': 'polsetver',
  projects: 'prj',
  'registry-providers': 'prov',
  'registry-provider-platforms': 'provpltfrm',
  'registry-provider-versions': 'provver',
  'run-triggers': 'rt',
  'reserved-tag-keys': 'rtk',
  runs: 'run',
  'tag-bindings': 'tb',
  teams: 'team',
  'team-workspaces': 'tws',
  users: 'user',
  workspaces: 'ws',
};

function typePrefix(type: string): string {
  return ID_PREFIXES[type] ?? ID_PREFIXES[`${type.replace(/-id$/, '')}s`] ?? type.split('-')[0];
}

/** An example value for a schema: its own example, its first enum value, or one by name and type. */
export function exampleValue(schema: SchemaObject, key = ''): unknown {
  if (schema.example !== undefined) return schema.example;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.oneOf?.length) return exampleValue(schema.oneOf[0] as SchemaObject, key);
  switch (schema.type ?? 'string') {
    case 'boolean':
      return false;
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'array':
      return schema.items ? [exampleValue(schema.items as SchemaObject, key)] : [];
    case 'object': {
      const typeEnum = (schema.properties?.type as SchemaObject | undefined)?.enum;
      if (schema.properties?.id && typeEnum?.length && !schema.properties.attributes) {
        const type = String(typeEnum[0]);
        return { id: type === 'organizations' ? 'acme' : `${typePrefix(type)}-${EXAMPLE_ID}`, type };
      }
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([k, v]) => [k, exampleValue(v as SchemaObject, k)]),
      );
    }
    default:
      if (schema.format === 'date-time') return '2024-08-13T23:06:42.523Z';
      if (schema.format === 'uri') return 'https://plinth.example.com/api/v2/example';
      if (schema.nullable) return null;
      if (key.endsWith('-id')) return `${typePrefix(key)}-${EXAMPLE_ID}`;
      return (
        EXAMPLE_STRINGS[key] ?? EXAMPLE_STRINGS[key.split('-').pop() ?? ''] ?? `${key || 'text'}-example`
      );
  }
}

/** A resource of the doc's type as the server writes it. */
export function exampleResource(doc: ResourceDoc): Record<string, unknown> {
  const id = doc.type === 'organizations' ? 'acme' : `${typePrefix(doc.type)}-${EXAMPLE_ID}`;
  const self = `/api/v2/${doc.type}/${id}`;
  const relationships = Object.fromEntries(
    Object.entries(doc.relationships ?? {}).map(([name, rel]) => {
      if (rel.linksOnly) return [name, { links: { related: `${self}/${name}` } }];
      const type = typeof rel.type === 'string' ? rel.type : rel.type[0];
      const member = {
        id: type === 'organizations' ? 'acme' : `${typePrefix(type)}-${EXAMPLE_ID}`,
        type,
      };
      return [name, { data: rel.many ? [member] : member }];
    }),
  );
  return {
    id,
    type: doc.type,
    attributes: Object.fromEntries(Object.entries(doc.attributes).map(([k, v]) => [k, exampleValue(v, k)])),
    ...(doc.relationships ? { relationships } : {}),
    links: Object.fromEntries((doc.links ?? ['self']).map((l) => [l, l === 'self' ? self : `${self}/${l}`])),
  };
}

/** An example request document for a schema made by `requestSchema`. */
export function exampleRequest(schema: SchemaObject): unknown {
  return exampleValue(schema);
}

import { ResourceObject, toMany, toOne } from '../../common/jsonapi/document';
import { bool, ResourceDoc, str, timestamp } from '../../common/jsonapi/openapi';
import { isoMillis } from '../../common/jsonapi/timestamps';
import { RegistryProviderPlatformEntity } from '../entities/registry-provider-platform.entity';
import { RegistryProviderVersionEntity } from '../entities/registry-provider-version.entity';
import { PLATFORM_ARCH, PLATFORM_OS } from './platform-names';
import { PROTOCOLS } from './provider-version-attributes.dto';

const PERMISSIONS = {
  type: 'object' as const,
  properties: { 'can-delete': bool(), 'can-upload-asset': bool() },
};

export const PROVIDER_VERSION_DOC: ResourceDoc = {
  type: 'registry-provider-versions',
  attributes: {
    version: str('Semantic version, unique per provider'),
    'key-id': str('Id of the GPG key that signed SHA256SUMS'),
    protocols: { type: 'array', items: { type: 'string', enum: [...PROTOCOLS] } },
    permissions: PERMISSIONS,
    'shasums-uploaded': bool(),
    'shasums-sig-uploaded': bool(),
    'created-at': timestamp(),
    'updated-at': timestamp(),
  },
  relationships: {
    'registry-provider': { type: 'registry-providers' },
    platforms: { type: 'registry-provider-platforms', many: true },
  },
  links: ['self', 'shasums-upload', 'shasums-sig-upload', 'shasums-download', 'shasums-sig-download'],
};

export const PROVIDER_PLATFORM_DOC: ResourceDoc = {
  type: 'registry-provider-platforms',
  attributes: {
    os: str(`A Go GOOS name: ${PLATFORM_OS.join(', ')}`),
    arch: str(`A Go GOARCH name: ${PLATFORM_ARCH.join(', ')}`),
    shasum: str('SHA-256 (hex) of the binary archive; the upload must match it'),
    filename: str('Name of the binary archive, as listed in SHA256SUMS'),
    permissions: PERMISSIONS,
    'provider-binary-uploaded': bool(),
  },
  relationships: { 'registry-provider-version': { type: 'registry-provider-versions' } },
  links: ['self', 'provider-binary-upload', 'provider-binary-download'],
};

export interface VersionContext {
  providerId: string;
  /** Path of the provider (`…/registry-providers/private/:ns/:name`). */
  providerPath: string;
  canManage: boolean;
  platformIds: readonly string[];
  links: Record<string, string>;
}

export function versionPath(providerPath: string, version: string): string {
  return `${providerPath}/versions/${encodeURIComponent(version)}`;
}

export function platformsPath(providerPath: string, version: string): string {
  return `${versionPath(providerPath, version)}/platforms`;
}

export function serializeVersion(v: RegistryProviderVersionEntity, ctx: VersionContext): ResourceObject {
  return {
    id: v.id,
    type: 'registry-provider-versions',
    attributes: {
      version: v.version,
      'created-at': isoMillis(v.createdAt),
      'updated-at': isoMillis(v.updatedAt),
      'key-id': v.keyId,
      protocols: v.protocols,
      permissions: { 'can-delete': ctx.canManage, 'can-upload-asset': ctx.canManage },
      'shasums-uploaded': v.shasumsUploaded,
      'shasums-sig-uploaded': v.shasumsSigUploaded,
    },
    relationships: {
      'registry-provider': toOne('registry-providers', ctx.providerId),
      platforms: {
        ...toMany('registry-provider-platforms', ctx.platformIds),
        links: { related: platformsPath(ctx.providerPath, v.version) },
      },
    },
    links: { self: versionPath(ctx.providerPath, v.version), ...ctx.links },
  };
}

/** `links` holds `self` (the platform's path) and the signed upload and download links. */
export function serializePlatform(
  p: RegistryProviderPlatformEntity,
  canManage: boolean,
  links: Record<string, string>,
): ResourceObject {
  return {
    id: p.id,
    type: 'registry-provider-platforms',
    attributes: {
      os: p.os,
      arch: p.arch,
      filename: p.filename,
      shasum: p.shasum,
      permissions: { 'can-delete': canManage, 'can-upload-asset': canManage },
      'provider-binary-uploaded': p.providerBinaryUploaded,
    },
    relationships: { 'registry-provider-version': toOne('registry-provider-versions', p.versionId) },
    links,
  };
}

import { Injectable } from '@nestjs/common';
import { Principal } from '../../common/auth/principal';
import { notFound } from '../../common/errors/domain-error';
import { OrganizationsService } from '../../organizations/organizations.service';
import { RegistryProviderEntity } from '../entities/registry-provider.entity';
import { GpgKeysRepository } from '../gpg-keys/gpg-keys.repository';
import { RegistryProvidersService } from '../providers/registry-providers.service';
import { PURPOSE, RegistryLinks } from '../registry-links';
import { ProviderPlatformsRepository } from '../versions/provider-platforms.repository';
import { ProviderVersionsRepository } from '../versions/provider-versions.repository';

export interface ProtocolVersion {
  version: string;
  protocols: string[];
  platforms: { os: string; arch: string }[];
}

export interface ProtocolDownload {
  protocols: string[];
  os: string;
  arch: string;
  filename: string;
  download_url: string;
  shasums_url: string;
  shasums_signature_url: string;
  shasum: string;
  signing_keys: { gpg_public_keys: { key_id: string; ascii_armor: string }[] };
}

/**
 * The provider registry protocol over private providers. The namespace is an organization; only
 * its members see anything. Usability was computed when the files arrived, so listing versions is
 * a lookup of the provider and one query.
 */
@Injectable()
export class ProviderProtocolService {
  constructor(
    private readonly organizations: OrganizationsService,
    private readonly providers: RegistryProvidersService,
    private readonly versions: ProviderVersionsRepository,
    private readonly platforms: ProviderPlatformsRepository,
    private readonly keys: GpgKeysRepository,
    private readonly links: RegistryLinks,
  ) {}

  private async provider(p: Principal, namespace: string, name: string): Promise<RegistryProviderEntity> {
    const org = await this.organizations.requireVisible(p, namespace);
    const provider = await this.providers.findPrivate(org.id, name);
    if (!provider) throw notFound();
    return provider;
  }

  async listVersions(
    p: Principal,
    namespace: string,
    name: string,
  ): Promise<{ versions: ProtocolVersion[] }> {
    const provider = await this.provider(p, namespace, name);
    const byId = new Map<string, ProtocolVersion>();
    for (const row of await this.versions.usableWithPlatforms(provider.id)) {
      let entry = byId.get(row.versionId);
      if (!entry) {
        entry = {
          version: row.version,
          protocols: row.protocols ? row.protocols.split(',') : [],
          platforms: [],
        };
        byId.set(row.versionId, entry);
      }
      entry.platforms.push({ os: row.os, arch: row.arch });
    }
    return { versions: [...byId.values()] };
  }

  async download(
    p: Principal,
    origin: string,
    route: { namespace: string; name: string; version: string; os: string; arch: string },
  ): Promise<ProtocolDownload> {
    const provider = await this.provider(p, route.namespace, route.name);
    const version = await this.versions.find(provider.id, route.version);
    if (!version?.usable) throw notFound();
    const platform = await this.platforms.find(version.id, route.os, route.arch);
    if (!platform?.ready) throw notFound();
    const key = await this.keys.find(provider.organizationId, version.keyId);
    return {
      protocols: version.protocols,
      os: platform.os,
      arch: platform.arch,
      filename: platform.filename,
      download_url: this.links.download(origin, PURPOSE.binaryDownload, platform.id),
      shasums_url: this.links.download(origin, PURPOSE.shasumsDownload, version.id),
      shasums_signature_url: this.links.download(origin, PURPOSE.shasumsSigDownload, version.id),
      shasum: platform.shasum.toLowerCase(),
      signing_keys: {
        gpg_public_keys: key ? [{ key_id: key.keyId, ascii_armor: key.asciiArmor }] : [],
      },
    };
  }
}

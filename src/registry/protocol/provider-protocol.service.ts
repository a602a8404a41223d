import { Injectable } from '@nestjs/common';
import { Principal } from '../../common/auth/principal';
import { notFound } from '../../common/errors/domain-error';
import { OrganizationsService } from '../../organizations/organizations.service';
import { PURPOSE, RegistryLinks } from '../registry-links';
import { ProviderProtocolRepository } from './provider-protocol.repository';

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
 * its members see anything. Usability was computed when the files arrived, so each answer is one
 * query (the organization and the caller's rights come from the AuthCache).
 */
@Injectable()
export class ProviderProtocolService {
  constructor(
    private readonly organizations: OrganizationsService,
    private readonly repo: ProviderProtocolRepository,
    private readonly links: RegistryLinks,
  ) {}

  async listVersions(
    p: Principal,
    namespace: string,
    name: string,
  ): Promise<{ versions: ProtocolVersion[] }> {
    const org = await this.organizations.requireVisible(p, namespace);
    const rows = await this.repo.versionList(org.id, name);
    if (!rows.length) throw notFound();
    const byId = new Map<string, ProtocolVersion>();
    for (const row of rows) {
      if (row.version_id === null || row.os === null || row.arch === null) continue;
      let entry = byId.get(row.version_id);
      if (!entry) {
        entry = {
          version: row.version ?? '',
          protocols: row.protocols ? row.protocols.split(',') : [],
          platforms: [],
        };
        byId.set(row.version_id, entry);
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
    const org = await this.organizations.requireVisible(p, route.namespace);
    const row = await this.repo.download(org.id, route.name, route.version, route.os, route.arch);
    if (!row?.version_id || !truthy(row.usable)) throw notFound();
    if (!row.platform_id || !truthy(row.ready)) throw notFound();
    return {
      protocols: row.protocols ? row.protocols.split(',') : [],
      os: row.os ?? route.os,
      arch: row.arch ?? route.arch,
      filename: row.filename ?? '',
      download_url: this.links.download(origin, PURPOSE.binaryDownload, row.platform_id),
      shasums_url: this.links.download(origin, PURPOSE.shasumsDownload, row.version_id),
      shasums_signature_url: this.links.download(origin, PURPOSE.shasumsSigDownload, row.version_id),
      shasum: (row.shasum ?? '').toLowerCase(),
      signing_keys: {
        gpg_public_keys:
          row.key_id && row.ascii_armor ? [{ key_id: row.key_id, ascii_armor: row.ascii_armor }] : [],
      },
    };
  }
}

/** Booleans read through raw queries: 1/0 from MySQL and SQLite, true/false from some drivers. */
function truthy(value: number | boolean | null): boolean {
  return value === true || value === 1;
}

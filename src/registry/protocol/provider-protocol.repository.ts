import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { readRows } from '../../persistence/pool-reads';

/** One row per ready platform of a usable version; a provider without any gives one row of nulls. */
export interface VersionListRow {
  version_id: string | null;
  version: string | null;
  protocols: string | null;
  os: string | null;
  arch: string | null;
}

/** The provider, and the version, platform and stored key the download route names, if they exist. */
export interface DownloadRow {
  organization_id: string;
  version_id: string | null;
  protocols: string | null;
  usable: number | boolean | null;
  platform_id: string | null;
  os: string | null;
  arch: string | null;
  filename: string | null;
  shasum: string | null;
  ready: number | boolean | null;
  key_id: string | null;
  ascii_armor: string | null;
}

// A private provider's namespace is its organization's name and is not stored (the column is empty).
const PRIVATE_PROVIDER = `p.organization_id = ? AND p.registry_name = 'private' AND p.namespace = '' AND p.name = ?`;

/**
 * The two consumer-protocol reads, each one round trip to the database: they run on every
 * `terraform init`, so they are written as plain SQL over the registry tables instead of entity
 * lookups one after the other. Booleans are stored as 1/0 on both dialects.
 */
@Injectable()
export class ProviderProtocolRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Usable versions with their ready platforms; empty when the provider does not exist. */
  versionList(organizationId: string, name: string): Promise<VersionListRow[]> {
    return readRows(
      this.ds,
      `SELECT v.id AS version_id, v.version, v.protocols, pl.os, pl.arch
         FROM registry_providers p
         LEFT JOIN registry_provider_versions v ON v.provider_id = p.id AND v.usable = 1
         LEFT JOIN registry_provider_platforms pl ON pl.version_id = v.id AND pl.ready = 1
        WHERE ${PRIVATE_PROVIDER}
        ORDER BY v.created_at, v.id, pl.os, pl.arch`,
      [organizationId, name],
    );
  }

  /** Undefined when the provider does not exist. */
  async download(
    organizationId: string,
    name: string,
    version: string,
    os: string,
    arch: string,
  ): Promise<DownloadRow | undefined> {
    const rows = await readRows<DownloadRow>(
      this.ds,
      `SELECT p.organization_id, v.id AS version_id, v.protocols, v.usable,
              pl.id AS platform_id, pl.os, pl.arch, pl.filename, pl.shasum, pl.ready,
              k.key_id, k.ascii_armor
         FROM registry_providers p
         LEFT JOIN registry_provider_versions v ON v.provider_id = p.id AND v.version = ?
         LEFT JOIN registry_provider_platforms pl ON pl.version_id = v.id AND pl.os = ? AND pl.arch = ?
         LEFT JOIN registry_gpg_keys k ON k.organization_id = p.organization_id AND k.key_id = UPPER(v.key_id)
        WHERE ${PRIVATE_PROVIDER}`,
      [version, os, arch, organizationId, name],
    );
    return rows[0];
  }
}

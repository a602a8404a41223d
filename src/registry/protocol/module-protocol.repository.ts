import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { readRows } from '../../persistence/pool-reads';

/** One row per `ok` version; a module without any gives one row with a null version. */
export interface ModuleVersionRow {
  version: string | null;
}

export interface PublishedVersionRow {
  version: string | null;
  /** A Date or the driver's text, as the dialect reads it. */
  created_at: Date | string | null;
}

/** The module, and the version the download route names if it exists. */
export interface ModuleDownloadRow {
  version_id: string | null;
  status: string | null;
}

// A private module's namespace is its organization's name and is not stored (the column is empty).
const PRIVATE_MODULE = `m.organization_id = ? AND m.registry_name = 'private' AND m.namespace = '' AND m.name = ? AND m.provider = ?`;

/**
 * The two module-protocol reads, each one round trip to the database: they run on every
 * `terraform init` that names a module of the organization.
 */
@Injectable()
export class ModuleProtocolRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Versions whose archive is ready, oldest first; empty when the module does not exist. */
  versionList(organizationId: string, name: string, provider: string): Promise<ModuleVersionRow[]> {
    return readRows(
      this.ds,
      `SELECT v.version
         FROM registry_modules m
         LEFT JOIN registry_module_versions v ON v.module_id = m.id AND v.status = 'ok'
        WHERE ${PRIVATE_MODULE}
        ORDER BY v.created_at, v.id`,
      [organizationId, name, provider],
    );
  }

  /** Undefined when the module does not exist. */
  async download(
    organizationId: string,
    name: string,
    provider: string,
    version: string,
  ): Promise<ModuleDownloadRow | undefined> {
    const rows = await readRows<ModuleDownloadRow>(
      this.ds,
      `SELECT v.id AS version_id, v.status
         FROM registry_modules m
         LEFT JOIN registry_module_versions v ON v.module_id = m.id AND v.version = ?
        WHERE ${PRIVATE_MODULE}`,
      [version, organizationId, name, provider],
    );
    return rows[0];
  }

  /** Versions whose archive is ready with when each was published, oldest first; one row with nulls for a module without any. */
  publishedVersions(organizationId: string, name: string, provider: string): Promise<PublishedVersionRow[]> {
    return readRows(
      this.ds,
      `SELECT v.version, v.created_at
         FROM registry_modules m
         LEFT JOIN registry_module_versions v ON v.module_id = m.id AND v.status = 'ok'
        WHERE ${PRIVATE_MODULE}
        ORDER BY v.created_at, v.id`,
      [organizationId, name, provider],
    );
  }
}

import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Readable } from 'node:stream';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import { conflict, invalid, notFound } from '../../common/errors/domain-error';
import { inTransaction } from '../../common/sql/transaction';
import { AppConfig } from '../../config/app-config';
import { ArchiveInspection, ArchiveInspector } from '../../storage/archive-inspector';
import { BlobStore, StoredBlob } from '../../storage/blob-store';
import { leaseLost, UploadLeases } from '../../storage/upload-leases';
import { DownloadTarget, UploadRegistry } from '../../storage/upload-registry';
import { RegistryModuleVersionEntity } from '../entities/registry-module-version.entity';
import { blobKeys, PURPOSE } from '../registry-links';
import { moduleArchiveProblem } from './module-archive';
import { ModuleVersionsRepository } from './module-versions.repository';
import { RegistryModulesRepository } from './registry-modules.repository';

/**
 * What a module version's signed links do. The upload link works once: the first PUT moves the
 * version from `pending` to `reg_ingressing` (a compare-and-set, so a concurrent second PUT gets
 * 409) and takes an upload lease in the same transaction. The archive streams to a fresh blob
 * key under the size cap and goes through the shared bounded inspection plus the module rule;
 * the version is `ok` or `reg_ingress_failed` (with the reason, the PUT answering 422) by the
 * time the PUT answers. A refused archive is deleted before the version records the refusal. If
 * the process dies meanwhile, the lease expires and the upload sweep deletes the blob and puts the
 * version back to `pending`, its link usable again.
 */
@Injectable()
export class ModuleUploadsService implements OnModuleInit {
  constructor(
    private readonly registry: UploadRegistry,
    private readonly leases: UploadLeases,
    private readonly blobs: BlobStore,
    private readonly inspector: ArchiveInspector,
    private readonly versions: ModuleVersionsRepository,
    private readonly modules: RegistryModulesRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  onModuleInit(): void {
    this.registry.registerUpload(PURPOSE.moduleArchiveUpload, {
      maxBytes: () => this.config.maxModuleArchiveBytes,
      receive: (id, body) => this.receive(id, body),
      recover: (manager, id) => this.reopen(manager, id),
    });
    this.registry.registerDownload(PURPOSE.moduleArchiveDownload, { locate: (id) => this.locate(id) });
  }

  async receive(id: string, body: Readable): Promise<void> {
    const version = await this.versions.findById(id);
    const module = version && (await this.modules.findById(version.moduleId));
    if (!version || !module) throw notFound();
    const key = blobKeys.moduleArchive(version.moduleId, version.id);
    const startedAt = this.clock.now();
    const lease = await inTransaction(this.ds, async (m) => {
      const claimed = await this.versions.transition(m, id, 'pending', {
        status: 'reg_ingressing',
        updatedAt: startedAt,
      });
      return claimed
        ? this.leases.take(m, { purpose: PURPOSE.moduleArchiveUpload, resourceId: id, blobKey: key })
        : null;
    });
    if (!lease) throw conflict('This upload link has already been used', 'UPLOAD_LINK_USED');
    let stored: StoredBlob;
    let inspection: ArchiveInspection;
    try {
      stored = await this.blobs.put(key, body, { maxBytes: this.config.maxModuleArchiveBytes });
      inspection = await this.inspector.inspect(() => this.blobs.get(key), {
        owner: module.organizationId,
        maxExpandedBytes: this.config.maxModuleArchiveExpandedBytes,
        maxEntries: this.config.maxModuleArchiveEntries,
        maxMillis: this.config.moduleArchiveInspectionTimeoutMs,
        rule: moduleArchiveProblem,
      });
    } catch (err) {
      // Nothing usable arrived (too large, client gone, store failure): the link stays usable.
      await lease.abandon((m) => this.reopen(m, id));
      // The version (or its module) was deleted while the archive streamed in.
      if (!(await this.versions.findById(id))) throw notFound();
      throw err;
    }
    const at = this.clock.now();
    const changes: Partial<RegistryModuleVersionEntity> = inspection.ok
      ? {
          status: 'ok',
          archiveBlob: key,
          archiveSize: stored.size,
          archiveSha256: stored.sha256,
          updatedAt: at,
        }
      : { status: 'reg_ingress_failed', error: inspection.reason, updatedAt: at };
    // A refused archive goes first, so that no crash can leave it behind a failed version.
    if (!inspection.ok) await this.blobs.delete(key);
    const recorded = await inTransaction(
      this.ds,
      async (m) => (await lease.release(m)) && this.versions.transition(m, id, 'reg_ingressing', changes),
    );
    if (!recorded) {
      if (!(await this.versions.findById(id))) {
        await this.blobs.delete(key);
        throw notFound();
      }
      // A sweep took the lease over, deleted the blob and reopened the version: the key is no longer ours.
      throw leaseLost();
    }
    if (!inspection.ok) throw invalid(`The archive was refused: ${inspection.reason}`);
  }

  /** Back to waiting for its archive, from an upload that failed or died with its process. */
  private async reopen(manager: EntityManager, id: string): Promise<void> {
    await this.versions.transition(manager, id, 'reg_ingressing', {
      status: 'pending',
      updatedAt: this.clock.now(),
    });
  }

  private async locate(id: string): Promise<DownloadTarget> {
    const version = await this.versions.findById(id);
    if (version?.status !== 'ok' || !version.archiveBlob) throw notFound();
    const module = await this.modules.findById(version.moduleId);
    if (!module) throw notFound();
    return {
      key: version.archiveBlob,
      filename: `${module.name}-${module.provider}-${version.version}.tar.gz`,
      contentType: 'application/gzip',
    };
  }
}

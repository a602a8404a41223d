import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Readable } from 'node:stream';
import { DataSource } from 'typeorm';
import { PermissionService } from '../common/auth/permission.service';
import { Principal } from '../common/auth/principal';
import { Clock, strictlyAfter } from '../common/clock';
import { Page } from '../common/sql/paginate';
import { inTransaction } from '../common/sql/transaction';
import { conflict, invalid, notFound } from '../common/errors/domain-error';
import { newId, randomBase62 } from '../common/ids';
import { PageParams } from '../common/jsonapi/pagination';
import { AppConfig } from '../config/app-config';
import { ArchiveInspection, ArchiveInspector } from '../storage/archive-inspector';
import { BlobStore } from '../storage/blob-store';
import { UploadRegistry } from '../storage/upload-registry';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { WorkspaceLocks } from '../workspaces/workspace-locks.service';
import { ConfigurationVersionsRepository } from './configuration-versions.repository';
import { ConfigurationVersionEntity } from './entities/configuration-version.entity';
import { CONFIGURATION_DOWNLOAD, CONFIGURATION_UPLOAD } from './run-links';
import { DEFAULT_RUN_OPTIONS } from './run-options';
import { RunQueueService } from './run-queue.service';
import { ACTION_LEVEL } from './run-rules';

/** A configuration is code to run: at least one regular file. */
const configurationProblem = (entries: readonly { type: string }[]) =>
  entries.some((e) => e.type === 'file') ? null : 'the archive contains no regular file';

export interface CreateConfigurationVersion {
  autoQueueRuns: boolean;
  speculative: boolean;
  provisional: boolean;
}

/** The message of runs queued by an upload with `auto-queue-runs`. */
export const AUTO_QUEUED_MESSAGE = 'Queued automatically after the configuration version was uploaded';

/** Where a workspace's configuration archives live in the blob store. */
export const configurationBlobPrefix = (workspaceId: string) => `configuration-versions/${workspaceId}/`;

@Injectable()
export class ConfigurationVersionsService implements OnModuleInit {
  constructor(
    private readonly repo: ConfigurationVersionsRepository,
    private readonly workspaces: WorkspacesService,
    private readonly workspaceLocks: WorkspaceLocks,
    private readonly permissions: PermissionService,
    private readonly queue: RunQueueService,
    private readonly registry: UploadRegistry,
    private readonly blobs: BlobStore,
    private readonly inspector: ArchiveInspector,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  onModuleInit(): void {
    this.registry.registerUpload(CONFIGURATION_UPLOAD, {
      maxBytes: () => this.config.maxConfigurationBytes,
      receive: (id, body) => this.receive(id, body),
    });
    this.registry.registerDownload(CONFIGURATION_DOWNLOAD, {
      locate: async (id) => {
        const cv = await this.repo.findById(id);
        if (!cv?.archiveKey || cv.status !== 'uploaded') throw notFound();
        return { key: cv.archiveKey, filename: `${cv.id}.tar.gz`, contentType: 'application/gzip' };
      },
    });
  }

  /** Needs the right to queue plans in the workspace. */
  async create(
    p: Principal,
    workspaceId: string,
    attrs: CreateConfigurationVersion,
  ): Promise<ConfigurationVersionEntity> {
    const ws = await this.workspaces.requireAccess(p, workspaceId, ACTION_LEVEL.queue);
    return inTransaction(this.ds, async (manager) => {
      if (!(await this.workspaceLocks.lockForQueue(manager, ws.id))) throw notFound();
      const now = this.clock.now();
      const latest = await this.repo.newest(manager, ws.id);
      const createdAt = strictlyAfter(latest?.createdAt ?? null, now);
      const cv = Object.assign(new ConfigurationVersionEntity(), {
        id: newId('cv'),
        workspaceId: ws.id,
        status: 'pending',
        autoQueueRuns: attrs.autoQueueRuns,
        speculative: attrs.speculative,
        provisional: attrs.provisional,
        errorMessage: null,
        createdById: p.kind === 'user' ? p.userId : null,
        archiveKey: null,
        archiveSize: null,
        uploadedAt: null,
        erroredAt: null,
        createdAt,
        updatedAt: createdAt,
      });
      return this.repo.insert(manager, cv);
    });
  }

  /** The version, if the principal may read runs of its workspace. */
  async requireReadable(p: Principal, id: string): Promise<ConfigurationVersionEntity> {
    const cv = await this.repo.findById(id);
    if (!cv) throw notFound();
    await this.workspaces.requireAccess(p, cv.workspaceId, ACTION_LEVEL.read);
    return cv;
  }

  async list(p: Principal, workspaceId: string, page: PageParams): Promise<Page<ConfigurationVersionEntity>> {
    const ws = await this.workspaces.requireAccess(p, workspaceId, ACTION_LEVEL.read);
    return this.repo.list(ws.id, page);
  }

  /** Versions among `ids` whose workspace the principal may read, for `included` arrays. */
  async readable(p: Principal, ids: string[]): Promise<ConfigurationVersionEntity[]> {
    return this.visible(p, await this.repo.findByIds(ids));
  }

  /** Each workspace's configuration (its newest uploaded version that is not provisional), if readable. */
  async current(p: Principal, workspaceIds: readonly string[]): Promise<ConfigurationVersionEntity[]> {
    return this.visible(p, await this.repo.currentOf(workspaceIds));
  }

  private async visible(
    p: Principal,
    cvs: ConfigurationVersionEntity[],
  ): Promise<ConfigurationVersionEntity[]> {
    if (!cvs.length) return [];
    const levels = await this.permissions.workspaceLevels(
      p,
      await this.workspaces.findByIds(cvs.map((cv) => cv.workspaceId)),
    );
    return cvs.filter((cv) => levels.get(cv.workspaceId));
  }

  /** An uploaded version the principal may read, for the download redirect. */
  async requireDownloadable(p: Principal, id: string): Promise<ConfigurationVersionEntity> {
    const cv = await this.requireReadable(p, id);
    if (cv.status !== 'uploaded') throw notFound();
    return cv;
  }

  /**
   * The upload link's handler. The archive streams to a key of its own under the size cap and is
   * inspected (the shared bounded inspection: no absolute paths, no `..`, no escaping links, no
   * devices, at least one regular file, bounded expansion, entries and time). Then one compare-and-set moves the
   * version out of `pending`: a second upload gets 409 and its blob is dropped. With
   * `auto-queue-runs` the run is queued in that same transaction.
   */
  private async receive(id: string, body: Readable): Promise<void> {
    const cv = await this.repo.findById(id);
    if (!cv) throw notFound();
    if (cv.status !== 'pending') throw conflict('This upload link has already been used', 'UPLOAD_LINK_USED');
    const [workspace] = await this.workspaces.findByIds([cv.workspaceId]);
    if (!workspace) throw notFound();
    const key = `${configurationBlobPrefix(cv.workspaceId)}${cv.id}-${randomBase62(8)}.tar.gz`;
    const stored = await this.blobs.put(key, body, { maxBytes: this.config.maxConfigurationBytes });
    let inspection: ArchiveInspection;
    try {
      inspection = await this.inspector.inspect(() => this.blobs.get(key), {
        owner: workspace.organizationId,
        maxExpandedBytes: this.config.maxConfigurationExpandedBytes,
        maxEntries: this.config.maxConfigurationEntries,
        maxMillis: this.config.configurationInspectionTimeoutMs,
        rule: configurationProblem,
      });
    } catch (err) {
      await this.blobs.delete(key);
      throw err;
    }
    const at = this.clock.now();
    const recorded = await inTransaction(this.ds, async (manager) => {
      const changes: Partial<ConfigurationVersionEntity> = inspection.ok
        ? { status: 'uploaded', archiveKey: key, archiveSize: stored.size, uploadedAt: at, updatedAt: at }
        : { status: 'errored', errorMessage: inspection.reason, erroredAt: at, updatedAt: at };
      if (!(await this.repo.transition(manager, id, 'pending', changes))) return false;
      if (inspection.ok && cv.autoQueueRuns) await this.queueFor(manager, cv);
      return true;
    });
    if (!inspection.ok || !recorded) await this.blobs.delete(key);
    if (!recorded) throw conflict('This upload link has already been used', 'UPLOAD_LINK_USED');
    if (!inspection.ok) throw invalid(`The archive was refused: ${inspection.reason}`);
  }

  private async queueFor(manager: Parameters<RunQueueService['enqueue']>[0], cv: ConfigurationVersionEntity) {
    const ws = await this.workspaceLocks.lockForQueue(manager, cv.workspaceId);
    if (!ws) throw notFound();
    await this.queue.enqueue(
      manager,
      {
        workspaceId: cv.workspaceId,
        configurationVersionId: cv.id,
        message: AUTO_QUEUED_MESSAGE,
        ...DEFAULT_RUN_OPTIONS,
        planOnly: cv.speculative,
        autoApply: ws.autoApply,
        source: 'tfe-configuration-version',
        triggerReason: 'manual',
        createdById: cv.createdById,
        triggeringRunId: null,
      },
      ws,
    );
  }
}

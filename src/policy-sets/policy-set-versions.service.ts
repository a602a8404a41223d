import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Readable } from 'node:stream';
import { DataSource, EntityManager } from 'typeorm';
import { Clock, strictlyAfter } from '../common/clock';
import { Principal } from '../common/auth/principal';
import { Page } from '../common/sql/paginate';
import { inTransaction } from '../common/sql/transaction';
import { conflict, invalid, notFound } from '../common/errors/domain-error';
import { PageParams } from '../common/jsonapi/pagination';
import { newId } from '../common/ids';
import { AppConfig } from '../config/app-config';
import { OrganizationsService } from '../organizations/organizations.service';
import { BlobStore, StoredBlob } from '../storage/blob-store';
import { ArchiveInspection, ArchiveInspector } from '../storage/archive-inspector';
import { leaseLost, UploadLeases } from '../storage/upload-leases';
import { UploadRegistry } from '../storage/upload-registry';
import { API_SOURCE, PolicySetVersionEntity } from './entities/policy-set-version.entity';
import { PolicySetEntity } from './entities/policy-set.entity';
import { policyArchiveProblem } from './policy-set-rules';
import { PolicySetVersionsRepository } from './policy-set-versions.repository';
import { VERSION_UPLOAD_PURPOSE } from './policy-set.presenter';
import { PolicySetsRepository } from './policy-sets.repository';
import { policySetBlobPrefix, PolicySetsService } from './policy-sets.service';

/** Where a version's archive lives; a ready version's archive never changes. */
export const archiveKey = (v: Pick<PolicySetVersionEntity, 'id' | 'policySetId'>) =>
  `${policySetBlobPrefix(v.policySetId)}/versions/${v.id}.tar.gz`;

@Injectable()
export class PolicySetVersionsService implements OnModuleInit {
  constructor(
    private readonly sets: PolicySetsService,
    private readonly setsRepo: PolicySetsRepository,
    private readonly repo: PolicySetVersionsRepository,
    private readonly organizations: OrganizationsService,
    private readonly registry: UploadRegistry,
    private readonly leases: UploadLeases,
    private readonly blobs: BlobStore,
    private readonly inspector: ArchiveInspector,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  onModuleInit(): void {
    this.registry.registerUpload(VERSION_UPLOAD_PURPOSE, {
      maxBytes: () => this.config.maxPolicyArchiveBytes,
      receive: (id, body) => this.receive(id, body),
      recover: (manager, id) => this.reopen(manager, id),
    });
  }

  /** A new pending version; from now on the set takes uploaded versions instead of policies. */
  async create(p: Principal, setId: string): Promise<PolicySetVersionEntity> {
    const set = await this.sets.requireManageable(p, setId);
    const org = await this.organizations.requireById(set.organizationId);
    if (org.edition === 'free') throw invalid('The free edition does not include policy set versions');
    return inTransaction(this.ds, async (manager) => {
      const locked = await this.sets.lockExisting(manager, set.id);
      const refusal = await this.uploadRefusal(manager, locked);
      if (refusal) throw invalid(refusal);
      const now = this.clock.now();
      const latest = await this.repo.latestCreatedAt(manager, locked.id);
      const createdAt = strictlyAfter(latest, now);
      const version = Object.assign(new PolicySetVersionEntity(), {
        id: newId('polsetver'),
        policySetId: locked.id,
        source: API_SOURCE,
        status: 'pending',
        error: null,
        archiveSize: null,
        archiveSha256: null,
        ingressingAt: null,
        readyAt: null,
        erroredAt: null,
        createdAt,
        updatedAt: createdAt,
      });
      await this.repo.insert(manager, version);
      if (!locked.uploadVersioned) await this.setsRepo.markUploadVersioned(manager, locked.id);
      return version;
    });
  }

  /** The version and its set, if the principal may manage policies in the set's organization. */
  async requireManageable(
    p: Principal,
    id: string,
  ): Promise<{ version: PolicySetVersionEntity; set: PolicySetEntity }> {
    const version = await this.repo.findById(id);
    if (!version) throw notFound();
    const set = await this.sets.requireManageable(p, version.policySetId);
    return { version, set };
  }

  async list(p: Principal, setId: string, page: PageParams): Promise<Page<PolicySetVersionEntity>> {
    const set = await this.sets.requireManageable(p, setId);
    return this.repo.list(set.id, page);
  }

  private async uploadRefusal(manager: EntityManager, set: PolicySetEntity): Promise<string | null> {
    if (set.vcsIdentifier !== null) {
      return 'This policy set does not support uploading versions: its code comes from a VCS repository';
    }
    if ((await this.setsRepo.countMembers(manager, 'policies', set.id)) > 0) {
      return 'This policy set does not support uploading versions: it uses the policies relationship';
    }
    return null;
  }

  /**
   * The upload link's handler. The link works once: the first PUT moves the version out of
   * `pending` (a compare-and-set, so a concurrent second PUT gets 409) and takes an upload lease in
   * the same transaction; the archive streams to the blob store under the size cap, then it is
   * inspected. The version is `ready` or `errored` by the time the PUT answers; a refused archive
   * also answers 422 saying why. If the process dies meanwhile, the lease expires and the upload
   * sweep puts the version back to `pending`, its link usable again.
   */
  private async receive(id: string, body: Readable): Promise<void> {
    const version = await this.repo.findById(id);
    const set = version && (await this.setsRepo.findById(version.policySetId));
    if (!version || !set) throw notFound();
    const key = archiveKey(version);
    const startedAt = this.clock.now();
    const lease = await inTransaction(this.ds, async (m) => {
      const claimed = await this.repo.transition(m, id, 'pending', {
        status: 'ingressing',
        ingressingAt: startedAt,
        updatedAt: startedAt,
      });
      return claimed
        ? this.leases.take(m, { purpose: VERSION_UPLOAD_PURPOSE, resourceId: id, blobKey: key })
        : null;
    });
    if (!lease) throw conflict('This upload link has already been used', 'UPLOAD_LINK_USED');
    let stored: StoredBlob;
    let inspection: ArchiveInspection;
    try {
      stored = await this.blobs.put(key, body, { maxBytes: this.config.maxPolicyArchiveBytes });
      inspection = await this.inspector.inspect(() => this.blobs.get(key), {
        owner: set.organizationId,
        maxExpandedBytes: this.config.maxPolicyArchiveExpandedBytes,
        maxEntries: this.config.maxPolicyArchiveEntries,
        maxMillis: this.config.policyArchiveInspectionTimeoutMs,
        rule: policyArchiveProblem,
      });
    } catch (err) {
      // Nothing usable arrived (too large, client gone, store failure): the link stays usable.
      await lease.abandon((m) => this.reopen(m, id));
      // The set (and with it the version) was deleted while the archive streamed in.
      if (!(await this.repo.findById(id))) throw notFound();
      throw err;
    }
    const at = this.clock.now();
    const changes: Partial<PolicySetVersionEntity> = inspection.ok
      ? {
          status: 'ready',
          readyAt: at,
          archiveSize: stored.size,
          archiveSha256: stored.sha256,
          updatedAt: at,
        }
      : { status: 'errored', erroredAt: at, error: inspection.reason, updatedAt: at };
    // A refused archive goes first, so that no crash can leave it behind an errored version.
    if (!inspection.ok) await this.blobs.delete(key);
    const recorded = await inTransaction(
      this.ds,
      async (m) => (await lease.release(m)) && this.repo.transition(m, id, 'ingressing', changes),
    );
    if (!recorded) {
      // The set (and with it the version) was deleted while the archive streamed in.
      if (!(await this.repo.findById(id))) {
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
    await this.repo.transition(manager, id, 'ingressing', {
      status: 'pending',
      ingressingAt: null,
      updatedAt: this.clock.now(),
    });
  }
}

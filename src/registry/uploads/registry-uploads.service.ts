import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Readable } from 'node:stream';
import { DataSource, EntityManager } from 'typeorm';
import { inTransaction } from '../../common/sql/transaction';
import { conflict, DomainError, invalid, notFound } from '../../common/errors/domain-error';
import { AppConfig } from '../../config/app-config';
import { BlobStore, PutOptions, StoredBlob } from '../../storage/blob-store';
import { LeaseTarget, leaseLost, UploadLease, UploadLeases } from '../../storage/upload-leases';
import { DownloadTarget, UploadRegistry } from '../../storage/upload-registry';
import { RegistryProviderVersionEntity } from '../entities/registry-provider-version.entity';
import { readDetachedSignature } from '../gpg-keys/pgp';
import { RegistryProvidersRepository } from '../providers/registry-providers.repository';
import { blobKeys, PURPOSE } from '../registry-links';
import { ProviderPlatformsRepository } from '../versions/provider-platforms.repository';
import { ProviderVersionsRepository } from '../versions/provider-versions.repository';
import { RegistryReadinessService } from './registry-readiness.service';
import { parseSha256Sums } from './shasums';

/** SHA256SUMS or its signature: the two uploads of a provider version that make up its signed pair. */
interface SumsHalf {
  purpose: string;
  maxBytes: () => number;
  blobKey: (providerId: string, versionId: string) => string;
  alreadyUploaded: () => DomainError;
  received: (v: RegistryProviderVersionEntity) => boolean;
  /** The other half's blob once it has arrived, else null. */
  otherHalf: (v: RegistryProviderVersionEntity) => string | null;
  /** This half's bytes and the other's, as SHA256SUMS and signature. */
  pair: (mine: Buffer, other: Buffer) => { sums: Buffer; signature: Buffer };
  /** Checks the bytes (422 when unusable); answers what else to write when the half is recorded. */
  check: (
    bytes: Buffer,
  ) => Promise<((manager: EntityManager, versionId: string) => Promise<void>) | undefined>;
  record: (v: RegistryProviderVersionEntity, key: string) => void;
}

/**
 * What the registry's signed links do. Every upload streams to a fresh blob key first; only when
 * the bytes pass their checks does one transaction (holding the version's row lock) flip the flag
 * and record the key. A refused, oversized or repeated upload deletes its own blob, so nothing is
 * kept and nothing already accepted is overwritten. An upload holds a lease while it runs, released in
 * that same transaction: if its process dies, the upload sweep deletes the blob it left.
 *
 * Signature check ordering: whichever of SHA256SUMS and its signature arrives second completes
 * the pair and is verified (when the namespace stores the version's key); a bad pair refuses that
 * second upload with 422.
 */
@Injectable()
export class RegistryUploadsService implements OnModuleInit {
  private readonly logger = new Logger(RegistryUploadsService.name);

  constructor(
    private readonly registry: UploadRegistry,
    private readonly config: AppConfig,
    private readonly blobs: BlobStore,
    private readonly leases: UploadLeases,
    private readonly providers: RegistryProvidersRepository,
    private readonly versions: ProviderVersionsRepository,
    private readonly platforms: ProviderPlatformsRepository,
    private readonly readiness: RegistryReadinessService,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  /** SHA256SUMS: parsed before it is kept; its lines are recorded with it (the platforms' checksums). */
  private readonly shasums: SumsHalf = {
    purpose: PURPOSE.shasumsUpload,
    maxBytes: () => this.config.maxShasumsBytes,
    blobKey: blobKeys.shasums,
    alreadyUploaded: () =>
      conflict('SHA256SUMS has already been uploaded for this version', 'SHASUMS_ALREADY_UPLOADED'),
    received: (v) => v.shasumsUploaded,
    otherHalf: (v) => (v.shasumsSigUploaded ? v.shasumsSigBlob! : null),
    pair: (sums, signature) => ({ sums, signature }),
    check: async (bytes) => {
      const entries = parseSha256Sums(bytes);
      return (manager, versionId) => this.versions.insertChecksums(manager, versionId, entries);
    },
    record: (v, key) => {
      v.shasumsUploaded = true;
      v.shasumsBlob = key;
    },
  };

  /** SHA256SUMS.sig: a detached OpenPGP signature, read before it is kept. */
  private readonly signature: SumsHalf = {
    purpose: PURPOSE.shasumsSigUpload,
    maxBytes: () => this.config.maxSignatureBytes,
    blobKey: blobKeys.shasumsSig,
    alreadyUploaded: () =>
      conflict(
        'The SHA256SUMS signature has already been uploaded for this version',
        'SHASUMS_SIGNATURE_ALREADY_UPLOADED',
      ),
    received: (v) => v.shasumsSigUploaded,
    otherHalf: (v) => (v.shasumsUploaded ? v.shasumsBlob! : null),
    pair: (signature, sums) => ({ sums, signature }),
    check: async (bytes) => {
      await readDetachedSignature(bytes);
      return undefined;
    },
    record: (v, key) => {
      v.shasumsSigUploaded = true;
      v.shasumsSigBlob = key;
    },
  };

  onModuleInit(): void {
    this.registry.registerUpload(PURPOSE.shasumsUpload, {
      maxBytes: this.shasums.maxBytes,
      receive: (id, body) => this.receiveHalf(this.shasums, id, body),
    });
    this.registry.registerUpload(PURPOSE.shasumsSigUpload, {
      maxBytes: this.signature.maxBytes,
      receive: (id, body) => this.receiveHalf(this.signature, id, body),
    });
    this.registry.registerUpload(PURPOSE.binaryUpload, {
      maxBytes: () => this.config.maxProviderBinaryBytes,
      receive: (id, body) => this.receiveBinary(id, body),
    });
    this.registry.registerDownload(PURPOSE.shasumsDownload, { locate: (id) => this.locateSums(id, false) });
    this.registry.registerDownload(PURPOSE.shasumsSigDownload, { locate: (id) => this.locateSums(id, true) });
    this.registry.registerDownload(PURPOSE.binaryDownload, { locate: (id) => this.locateBinary(id) });
  }

  /**
   * One half of a version's SHA256SUMS pair. The bytes are checked on their own first (a parsable
   * SHA256SUMS, a readable signature); then, under the namespace's and the version's locks, a half
   * that completes the pair verifies it, and the half is recorded.
   */
  private async receiveHalf(half: SumsHalf, versionId: string, body: Readable): Promise<void> {
    const { version, organizationId } = await this.versionFor(versionId);
    if (half.received(version)) throw half.alreadyUploaded();
    const key = half.blobKey(version.providerId, version.id);
    const upload = { purpose: half.purpose, resourceId: versionId, blobKey: key };
    await this.keepOrDiscard(upload, body, { maxBytes: half.maxBytes() }, async (lease) => {
      const bytes = await this.readiness.readBlob(key);
      const recordAlso = await half.check(bytes);
      await inTransaction(this.ds, async (manager) => {
        await this.readiness.lockNamespace(manager, organizationId);
        const current = await this.readiness.lockVersion(manager, versionId);
        await this.release(manager, lease);
        if (half.received(current)) throw half.alreadyUploaded();
        const otherBlob = half.otherHalf(current);
        if (otherBlob !== null) {
          const { sums, signature } = half.pair(bytes, await this.readiness.readBlob(otherBlob));
          current.signatureState = await this.readiness.checkSignature(
            manager,
            organizationId,
            current,
            sums,
            signature,
          );
        }
        half.record(current, key);
        current.updatedAt = new Date();
        await recordAlso?.(manager, current.id);
        await this.readiness.refresh(manager, current);
      });
    });
  }

  async receiveBinary(platformId: string, body: Readable): Promise<void> {
    const platform = await this.platforms.findById(platformId);
    if (!platform) throw notFound();
    if (platform.providerBinaryUploaded)
      throw conflict('The binary has already been uploaded for this platform', 'BINARY_ALREADY_UPLOADED');
    const { version } = await this.versionFor(platform.versionId);
    const key = blobKeys.binary(version.providerId, version.id, platform.id);
    const upload = { purpose: PURPOSE.binaryUpload, resourceId: platformId, blobKey: key };
    const limit = { maxBytes: this.config.maxProviderBinaryBytes };
    await this.keepOrDiscard(upload, body, limit, async (lease, stored) => {
      if (stored.sha256 !== platform.shasum.toLowerCase()) {
        throw invalid(`The binary's SHA-256 (${stored.sha256}) does not match the platform's shasum`);
      }
      await inTransaction(this.ds, async (manager) => {
        const current = await this.readiness.lockVersion(manager, version.id);
        const target = await this.platforms.findById(platformId, manager);
        if (!target) throw notFound();
        await this.release(manager, lease);
        if (target.providerBinaryUploaded) {
          throw conflict('The binary has already been uploaded for this platform', 'BINARY_ALREADY_UPLOADED');
        }
        target.providerBinaryUploaded = true;
        target.binaryBlob = key;
        target.updatedAt = new Date();
        await this.platforms.save(manager, target);
        await this.readiness.refresh(manager, current);
      });
    });
  }

  private async locateSums(versionId: string, signature: boolean): Promise<DownloadTarget> {
    const version = await this.versions.findById(versionId);
    const key = signature ? version?.shasumsSigBlob : version?.shasumsBlob;
    if (!version || !key) throw notFound();
    const provider = await this.providers.findById(version.providerId);
    if (!provider) throw notFound();
    const base = `terraform-provider-${provider.name}_${version.version}_SHA256SUMS`;
    return signature
      ? { key, filename: `${base}.sig`, contentType: 'application/octet-stream' }
      : { key, filename: base, contentType: 'text/plain; charset=utf-8' };
  }

  private async locateBinary(platformId: string): Promise<DownloadTarget> {
    const platform = await this.platforms.findById(platformId);
    if (!platform?.binaryBlob) throw notFound();
    return { key: platform.binaryBlob, filename: platform.filename, contentType: 'application/zip' };
  }

  private async versionFor(versionId: string) {
    const version = await this.versions.findById(versionId);
    if (!version) throw notFound();
    const provider = await this.providers.findById(version.providerId);
    if (!provider) throw notFound();
    return { version, organizationId: provider.organizationId };
  }

  /**
   * Streams the body to its blob under a lease, then runs the checks and the flag flip; on any
   * failure the blob is deleted and the lease ended. An upload whose version or platform was
   * deleted while it streamed answers 404 (whatever the store said about the vanished files).
   */
  private async keepOrDiscard(
    upload: LeaseTarget,
    body: Readable,
    limit: PutOptions,
    work: (lease: UploadLease, stored: StoredBlob) => Promise<void>,
  ): Promise<void> {
    const lease = await this.leases.begin(upload);
    try {
      await work(lease, await this.blobs.put(upload.blobKey, body, limit));
    } catch (err) {
      try {
        await lease.abandon();
      } catch (cleanup) {
        this.logger.warn({ err: cleanup, key: upload.blobKey }, 'could not delete a refused upload');
      }
      if (!(await this.stillExists(upload))) throw notFound();
      throw err;
    }
  }

  private async stillExists(upload: LeaseTarget): Promise<boolean> {
    if (upload.purpose === PURPOSE.binaryUpload)
      return (await this.platforms.findById(upload.resourceId)) !== null;
    return (await this.versions.findById(upload.resourceId)) !== null;
  }

  /** Inside the recording transaction, after the version's lock: the upload is no longer in progress. */
  private async release(manager: EntityManager, lease: UploadLease): Promise<void> {
    if (!(await lease.release(manager))) throw leaseLost();
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Readable } from 'node:stream';
import { DataSource, EntityManager } from 'typeorm';
import { inTransaction } from '../../common/sql/transaction';
import { OrganizationsService } from '../../organizations/organizations.service';
import { invalid, notFound } from '../../common/errors/domain-error';
import { BlobStore } from '../../storage/blob-store';
import { RegistryGpgKeyEntity } from '../entities/registry-gpg-key.entity';
import { RegistryProviderVersionEntity, SignatureState } from '../entities/registry-provider-version.entity';
import { GpgKeysRepository } from '../gpg-keys/gpg-keys.repository';
import { verifyDetached } from '../gpg-keys/pgp';
import { ProviderPlatformsRepository } from '../versions/provider-platforms.repository';
import { ProviderVersionsRepository } from '../versions/provider-versions.repository';
import { computeReadiness } from './readiness';

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/**
 * Keeps the precomputed `ready`/`usable` columns and the signature state true. Every writer of a
 * version (uploads, platform changes, key changes) holds the version's row lock while it calls
 * in here, so two concurrent uploads cannot each miss the other's file.
 */
@Injectable()
export class RegistryReadinessService {
  constructor(
    private readonly versions: ProviderVersionsRepository,
    private readonly platforms: ProviderPlatformsRepository,
    private readonly keys: GpgKeysRepository,
    private readonly blobs: BlobStore,
    private readonly organizations: OrganizationsService,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  /** Locks the version for the rest of the transaction and reads it fresh; 404 once it is gone. */
  async lockVersion(manager: EntityManager, versionId: string): Promise<RegistryProviderVersionEntity> {
    await this.versions.lock(manager, versionId);
    const version = await this.versions.findById(versionId, manager);
    if (!version) throw notFound();
    return version;
  }

  /**
   * Serialises signature decisions of one namespace: uploads that complete a SHA256SUMS pair and
   * GPG key changes both take it (before any version lock), so an upload either sees a key that is
   * being stored or is committed before that key's re-check looks for versions to check.
   */
  async lockNamespace(manager: EntityManager, organizationId: string): Promise<void> {
    await this.organizations.lockForChildWrites(manager, organizationId);
  }

  /** Recomputes platform readiness and version usability, then saves the version. */
  async refresh(manager: EntityManager, version: RegistryProviderVersionEntity): Promise<void> {
    const platforms = await this.platforms.findByVersion(manager, version.id);
    const checksums = version.shasumsUploaded
      ? await this.versions.checksums(
          manager,
          version.id,
          platforms.map((p) => p.filename),
        )
      : new Map<string, string>();
    const result = computeReadiness({ ...version, platforms, checksums });
    for (const platform of platforms) {
      const ready = result.readyPlatformIds.has(platform.id);
      if (platform.ready !== ready) {
        platform.ready = ready;
        await this.platforms.save(manager, platform);
      }
    }
    version.usable = result.usable;
    await this.versions.save(manager, version);
  }

  readBlob(key: string): Promise<Buffer> {
    return this.blobs.get(key).then(readAll);
  }

  /**
   * Checks SHA256SUMS against its signature when the namespace stores the version's key:
   * `valid`, or a 422 refusing the upload that completed the pair. Without the key: `unverified`.
   */
  async checkSignature(
    manager: EntityManager,
    organizationId: string,
    version: RegistryProviderVersionEntity,
    sums: Uint8Array,
    signature: Uint8Array,
  ): Promise<SignatureState> {
    const key = await this.keys.find(organizationId, version.keyId, manager);
    if (!key) return 'unverified';
    if (await verifyDetached(sums, signature, key.asciiArmor)) return 'valid';
    throw invalid(`The signature does not verify SHA256SUMS with the key ${key.keyId}`);
  }

  /**
   * After a key with `keyId` appeared in, left or moved out of an organization's namespace:
   * checks again every version of its private providers that names the key and has both files.
   * A version whose signature the new key rejects stops being usable; one whose key is gone
   * goes back to `unverified`.
   */
  async reverify(organizationId: string, keyId: string): Promise<void> {
    const key = await this.keys.find(organizationId, keyId);
    for (const version of await this.versions.findSignedWith(organizationId, keyId)) {
      const state = key ? await this.verifyStored(version, key) : 'unverified';
      await inTransaction(this.ds, async (manager) => {
        if (!(await this.versions.lock(manager, version.id))) return;
        const current = await this.versions.findById(version.id, manager);
        if (!current) return;
        const keyNow = await this.keys.find(organizationId, keyId, manager);
        // A key change that raced this check runs its own re-verification; leave it to that one.
        if ((keyNow?.asciiArmor ?? null) !== (key?.asciiArmor ?? null)) return;
        if (current.shasumsBlob !== version.shasumsBlob || current.shasumsSigBlob !== version.shasumsSigBlob)
          return;
        current.signatureState = state;
        await this.refresh(manager, current);
      });
    }
  }

  private async verifyStored(
    version: RegistryProviderVersionEntity,
    key: RegistryGpgKeyEntity,
  ): Promise<SignatureState> {
    const [sums, signature] = await Promise.all([
      this.readBlob(version.shasumsBlob!),
      this.readBlob(version.shasumsSigBlob!),
    ]);
    return (await verifyDetached(sums, signature, key.asciiArmor)) ? 'valid' : 'invalid';
  }
}

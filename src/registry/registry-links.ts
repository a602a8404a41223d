import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { randomBase62 } from '../common/ids';
import { SignedLinks } from '../storage/signed-links';
import { RegistryProviderPlatformEntity } from './entities/registry-provider-platform.entity';
import { RegistryProviderVersionEntity } from './entities/registry-provider-version.entity';

/** What each signed registry link does; the upload service registers a handler per purpose. */
export const PURPOSE = {
  shasumsUpload: 'provider-shasums-upload',
  shasumsSigUpload: 'provider-shasums-sig-upload',
  binaryUpload: 'provider-binary-upload',
  shasumsDownload: 'provider-shasums-download',
  shasumsSigDownload: 'provider-shasums-sig-download',
  binaryDownload: 'provider-binary-download',
  moduleArchiveUpload: 'module-archive-upload',
  moduleArchiveDownload: 'module-archive-download',
} as const;

/**
 * Upload links stay valid at least 25 hours after they are shown (the reference service's
 * lifetime for its blob links); download links at least one hour, long enough for a consumer
 * to fetch right after asking. Expiries are rounded up to a bucket so that a link reads the same
 * across requests within the bucket instead of changing on every GET.
 */
export const UPLOAD_LINK_LIFETIME_SECONDS = 25 * 3600;
export const DOWNLOAD_LINK_LIFETIME_SECONDS = 3600;
/** A module version's upload link: one hour, as the reference service's. */
export const MODULE_UPLOAD_LINK_LIFETIME_SECONDS = 3600;
const UPLOAD_BUCKET_SECONDS = 3600;
const DOWNLOAD_BUCKET_SECONDS = 300;

/**
 * Blob layout: everything of a version lives under its prefix, so deleting the version (or the
 * provider) removes every file it ever received, including ones from uploads that were refused or
 * interrupted. Each accepted upload gets a fresh key; no key is ever written twice.
 */
export const blobKeys = {
  provider: (providerId: string) => `registry/${providerId}`,
  version: (providerId: string, versionId: string) => `registry/${providerId}/${versionId}`,
  platform: (providerId: string, versionId: string, platformId: string) =>
    `registry/${providerId}/${versionId}/${platformId}`,
  shasums: (providerId: string, versionId: string) =>
    `registry/${providerId}/${versionId}/shasums-${randomBase62(12)}`,
  shasumsSig: (providerId: string, versionId: string) =>
    `registry/${providerId}/${versionId}/shasums-sig-${randomBase62(12)}`,
  binary: (providerId: string, versionId: string, platformId: string) =>
    `registry/${providerId}/${versionId}/${platformId}/binary-${randomBase62(12)}`,
  module: (moduleId: string) => `registry/${moduleId}`,
  moduleVersion: (moduleId: string, versionId: string) => `registry/${moduleId}/${versionId}`,
  moduleArchive: (moduleId: string, versionId: string) =>
    `registry/${moduleId}/${versionId}/archive-${randomBase62(12)}.tar.gz`,
};

@Injectable()
export class RegistryLinks {
  constructor(
    private readonly links: SignedLinks,
    private readonly clock: Clock,
  ) {}

  private expiry(lifetime: number, bucket: number): number {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    return Math.ceil((now + lifetime) / bucket) * bucket;
  }

  upload(origin: string, purpose: string, resourceId: string): string {
    const expiresAt = this.expiry(UPLOAD_LINK_LIFETIME_SECONDS, UPLOAD_BUCKET_SECONDS);
    return this.links.url(origin, { purpose, resourceId, expiresAt });
  }

  /** The upload link of a module version: valid at least an hour (rounded up to five minutes). */
  moduleUpload(origin: string, versionId: string): string {
    const expiresAt = this.expiry(MODULE_UPLOAD_LINK_LIFETIME_SECONDS, DOWNLOAD_BUCKET_SECONDS);
    return this.links.url(origin, { purpose: PURPOSE.moduleArchiveUpload, resourceId: versionId, expiresAt });
  }

  /**
   * Where a consumer fetches a module version's archive, with go-getter's `archive=tar.gz` hint:
   * the signed link ends in no file extension, and without the hint go-getter would read the
   * answer as another redirect instead of unpacking it. The /uploads route ignores the query.
   */
  moduleArchive(origin: string, versionId: string): string {
    return `${this.download(origin, PURPOSE.moduleArchiveDownload, versionId)}?archive=tar.gz`;
  }

  download(origin: string, purpose: string, resourceId: string): string {
    const expiresAt = this.expiry(DOWNLOAD_LINK_LIFETIME_SECONDS, DOWNLOAD_BUCKET_SECONDS);
    return this.links.url(origin, { purpose, resourceId, expiresAt });
  }

  /**
   * `shasums-upload`/`shasums-sig-upload` until each file arrives, then the `-download` link.
   * Upload links are capabilities, so only callers who may upload (`can-upload-asset`) get them.
   */
  version(origin: string, v: RegistryProviderVersionEntity, canUpload: boolean): Record<string, string> {
    const links: Record<string, string> = {};
    if (v.shasumsUploaded) links['shasums-download'] = this.download(origin, PURPOSE.shasumsDownload, v.id);
    else if (canUpload) links['shasums-upload'] = this.upload(origin, PURPOSE.shasumsUpload, v.id);
    if (v.shasumsSigUploaded) {
      links['shasums-sig-download'] = this.download(origin, PURPOSE.shasumsSigDownload, v.id);
    } else if (canUpload) {
      links['shasums-sig-upload'] = this.upload(origin, PURPOSE.shasumsSigUpload, v.id);
    }
    return links;
  }

  platform(origin: string, p: RegistryProviderPlatformEntity, canUpload: boolean): Record<string, string> {
    if (p.providerBinaryUploaded) {
      return { 'provider-binary-download': this.download(origin, PURPOSE.binaryDownload, p.id) };
    }
    return canUpload ? { 'provider-binary-upload': this.upload(origin, PURPOSE.binaryUpload, p.id) } : {};
  }
}

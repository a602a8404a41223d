import { INestApplication } from '@nestjs/common';
import { Readable } from 'node:stream';
import { BlobStore, StoredBlob } from '../../src/storage/blob-store';
import { SignedLinks } from '../../src/storage/signed-links';
import { UploadHandler, UploadRegistry } from '../../src/storage/upload-registry';

export const TEST_UPLOAD_PURPOSE = 'test-upload';
export const TEST_UPLOAD_MAX_BYTES = 8 * 1024 * 1024;

export const testUploadKey = (id: string) => `test-uploads/${id}`;

/**
 * A test-only upload purpose shaped like the real ones: stream the body to the blob store and
 * flip the resource's "uploaded" flag only once the blob is durably stored.
 */
export class TestUploads implements UploadHandler {
  /** Resources whose flag flipped, with what was stored. */
  readonly uploaded = new Map<string, StoredBlob>();
  /** Resources whose upload failed, with the error. */
  readonly failed = new Map<string, unknown>();

  constructor(private readonly blobs: BlobStore) {}

  async receive(resourceId: string, body: Readable): Promise<void> {
    try {
      const stored = await this.blobs.put(testUploadKey(resourceId), body, {
        maxBytes: TEST_UPLOAD_MAX_BYTES,
      });
      this.uploaded.set(resourceId, stored);
    } catch (err) {
      this.failed.set(resourceId, err);
      throw err;
    }
  }

  maxBytes(): number {
    return TEST_UPLOAD_MAX_BYTES;
  }

  /** The path part of an upload link for `resourceId`, valid for ten minutes. */
  static link(app: INestApplication, resourceId: string): string {
    const token = app.get(SignedLinks).token({
      purpose: TEST_UPLOAD_PURPOSE,
      resourceId,
      expiresAt: Math.floor(Date.now() / 1000) + 600,
    });
    return `/uploads/${token}`;
  }
}

export function registerTestUploads(app: INestApplication): TestUploads {
  const handler = new TestUploads(app.get(BlobStore));
  app.get(UploadRegistry).registerUpload(TEST_UPLOAD_PURPOSE, handler);
  return handler;
}

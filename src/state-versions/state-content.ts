import { Injectable } from '@nestjs/common';
import { Readable } from 'node:stream';
import { randomBase62 } from '../common/ids';
import { AppConfig } from '../config/app-config';
import { Secrets } from '../secrets/secrets.service';
import { BlobStore, tooLarge } from '../storage/blob-store';
import { UploadLease, UploadLeases } from '../storage/upload-leases';
import type { JsonValue } from './state-file';

export type StateKind = 'state' | 'json-state';

/** Upload link purposes: one per kind of file, each naming the state version. */
export const UPLOAD_PURPOSE: Record<StateKind, string> = {
  state: 'state-version-upload',
  'json-state': 'state-version-json-upload',
};

/** Where a workspace's state files live in the blob store. */
export const stateBlobPrefix = (workspaceId: string) => `state-versions/${workspaceId}/`;

/** A state file stored encrypted, covered by an upload lease until the transaction recording it. */
export interface StoredState {
  blobKey: string;
  /** The file's data key, wrapped: kept in the version's row. */
  dataKey: string;
  size: number;
  lease: UploadLease;
}

/**
 * State files in the blob store, encrypted (Secrets) under a data key of their own and bound to
 * their blob key. Files are whole before they are stored: a state is read and checked before
 * anything keeps it, within MAX_STATE_BYTES.
 */
@Injectable()
export class StateContent {
  constructor(
    private readonly blobs: BlobStore,
    private readonly secrets: Secrets,
    private readonly leases: UploadLeases,
    private readonly config: AppConfig,
  ) {}

  get maxBytes(): number {
    return this.config.maxStateBytes;
  }

  /** The body whole; 413 (nothing kept) once it passes MAX_STATE_BYTES. */
  async read(body: Readable): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
      size += bytes.length;
      if (size > this.maxBytes) {
        body.destroy();
        throw tooLarge(this.maxBytes);
      }
      chunks.push(bytes);
    }
    return Buffer.concat(chunks);
  }

  /** 413 for bytes past MAX_STATE_BYTES. */
  checkSize(bytes: Buffer): void {
    if (bytes.length > this.maxBytes) throw tooLarge(this.maxBytes);
  }

  /**
   * Encrypts and stores one file of a state version at a key of its own, under an upload lease: if
   * the process dies before the transaction that records it, the upload sweep deletes the blob.
   */
  async store(workspaceId: string, versionId: string, kind: StateKind, bytes: Buffer): Promise<StoredState> {
    const blobKey = `${stateBlobPrefix(workspaceId)}${versionId}-${randomBase62(8)}.${kind}`;
    const lease = await this.leases.begin({ purpose: UPLOAD_PURPOSE[kind], resourceId: versionId, blobKey });
    try {
      const encryption = this.secrets.encrypting(blobKey);
      await this.blobs.put(blobKey, Readable.from([bytes]).pipe(encryption.stream), {
        maxBytes: this.secrets.encryptedSize(bytes.length),
      });
      return { blobKey, dataKey: encryption.wrappedKey, size: bytes.length, lease };
    } catch (err) {
      await lease.abandon();
      throw err;
    }
  }

  /** The decrypted bytes of a stored file, as a stream. */
  async open(blobKey: string, dataKey: string): Promise<Readable> {
    const decrypting = this.secrets.decrypting(dataKey, blobKey);
    const source = await this.blobs.get(blobKey);
    source.on('error', (err) => decrypting.destroy(err));
    return source.pipe(decrypting);
  }

  /** Output values are sealed one by one, each bound to its output's id. */
  sealOutput(outputId: string, value: JsonValue): string {
    return this.secrets.seal(JSON.stringify(value), `state-version-outputs/${outputId}`);
  }

  openOutput(outputId: string, sealed: string): JsonValue {
    return JSON.parse(
      this.secrets.open(sealed, `state-version-outputs/${outputId}`).toString('utf8'),
    ) as JsonValue;
  }
}

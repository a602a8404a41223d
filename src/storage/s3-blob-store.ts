import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NotFound,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../common/private-files';
import {
  assertSafeKey,
  BlobStore,
  ByteRange,
  MeteredStream,
  PutOptions,
  removeStaleTemporaryFiles,
  StoredBlob,
  TEMPORARY_SUFFIX,
} from './blob-store';

export interface S3Options {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  /** Local spool directory: the upload is metered and hashed into it, then sent with a known length. */
  spoolDir: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return (
    err instanceof NoSuchKey ||
    err instanceof NotFound ||
    e?.name === 'NotFound' ||
    e?.$metadata?.httpStatusCode === 404
  );
}

/**
 * An S3-compatible bucket for multi-node installs. S3 makes an object visible only once its PUT
 * completes, so readers never see a partial upload.
 */
export class S3BlobStore extends BlobStore {
  private readonly client: S3Client;

  constructor(private readonly options: S3Options) {
    super();
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials: options.credentials,
      // Default checksums send aws-chunked bodies that many S3-compatible servers store verbatim.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, source: Readable, options: PutOptions): Promise<StoredBlob> {
    assertSafeKey(key);
    await mkdir(this.options.spoolDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const spool = join(this.options.spoolDir, `${randomBytes(8).toString('hex')}${TEMPORARY_SUFFIX}`);
    const meter = new MeteredStream(options.maxBytes);
    try {
      await pipeline(source, meter, createWriteStream(spool, { flags: 'wx', mode: PRIVATE_FILE_MODE }));
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.options.bucket,
          Key: key,
          Body: createReadStream(spool),
          ContentLength: meter.size,
        }),
      );
    } finally {
      await rm(spool, { force: true });
    }
    return { size: meter.size, sha256: meter.digest() };
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    assertSafeKey(key);
    if (range && range.end <= range.start) {
      await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return Readable.from([]);
    }
    const out = await this.client.send(
      new GetObjectCommand({
        Bucket: this.options.bucket,
        Key: key,
        // HTTP ranges are inclusive at both ends.
        Range: range ? `bytes=${range.start}-${range.end - 1}` : undefined,
      }),
    );
    return out.Body as Readable;
  }

  async stat(key: string): Promise<{ size: number } | null> {
    assertSafeKey(key);
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return { size: out.ContentLength ?? 0 };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: key }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    const clean = `${prefix.replace(/\/+$/, '')}/`;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: clean, ContinuationToken: token }),
      );
      const keys = (page.Contents ?? []).map((o) => ({ Key: o.Key! }));
      if (keys.length) {
        await this.client.send(
          new DeleteObjectsCommand({ Bucket: this.options.bucket, Delete: { Objects: keys } }),
        );
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** The spool is local to the node: a node sweeps only what its own earlier runs left there. */
  sweepTemporary(olderThan: Date): Promise<void> {
    return removeStaleTemporaryFiles(this.options.spoolDir, olderThan);
  }

  destroy(): void {
    this.client.destroy();
  }
}

import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
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

/**
 * Files under a root directory; writes go to a temporary file, are fsynced, then renamed into place.
 * Temporary files live in one directory of their own under the root (the same filesystem, so the
 * rename stays atomic): deleting a prefix never pulls a file from under a put, and the sweep of
 * abandoned ones reads one directory instead of the whole tree.
 */
export class FsBlobStore extends BlobStore {
  private readonly temporaryDir: string;

  constructor(private readonly root: string) {
    super();
    // assertSafeKey refuses keys that start with a dot, so no blob can land in here.
    this.temporaryDir = join(root, '.uploading');
  }

  private path(key: string): string {
    assertSafeKey(key);
    return join(this.root, key);
  }

  async put(key: string, source: Readable, options: PutOptions): Promise<StoredBlob> {
    const target = this.path(key);
    await mkdir(this.temporaryDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const tmp = join(this.temporaryDir, `${randomBytes(8).toString('hex')}${TEMPORARY_SUFFIX}`);
    const meter = new MeteredStream(options.maxBytes);
    try {
      await pipeline(source, meter, createWriteStream(tmp, { flags: 'wx', mode: PRIVATE_FILE_MODE }));
      const handle = await open(tmp, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      await mkdir(dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
      await rename(tmp, target);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    return { size: meter.size, sha256: meter.digest() };
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const path = this.path(key);
    await stat(path);
    if (range && range.end <= range.start) return Readable.from([]);
    // createReadStream's `end` is inclusive.
    return createReadStream(path, range ? { start: range.start, end: range.end - 1 } : undefined);
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const s = await stat(this.path(key));
      return { size: s.size };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await unlink(this.path(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    const clean = prefix.replace(/\/+$/, '');
    assertSafeKey(clean);
    await rm(join(this.root, clean), { recursive: true, force: true });
  }

  sweepTemporary(olderThan: Date): Promise<void> {
    return removeStaleTemporaryFiles(this.temporaryDir, olderThan);
  }
}

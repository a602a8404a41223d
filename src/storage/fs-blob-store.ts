import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../common/private-files';
import { assertSafeKey, BlobStore, MeteredStream, PutOptions, StoredBlob } from './blob-store';

/** Files under a root directory; writes go to a temporary file, are fsynced, then renamed into place. */
export class FsBlobStore extends BlobStore {
  constructor(private readonly root: string) {
    super();
  }

  private path(key: string): string {
    assertSafeKey(key);
    return join(this.root, key);
  }

  async put(key: string, source: Readable, options: PutOptions): Promise<StoredBlob> {
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
    const tmp = `${target}.${randomBytes(6).toString('hex')}.partial`;
    const meter = new MeteredStream(options.maxBytes);
    try {
      await pipeline(source, meter, createWriteStream(tmp, { flags: 'wx', mode: PRIVATE_FILE_MODE }));
      const handle = await open(tmp, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(tmp, target);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    return { size: meter.size, sha256: meter.digest() };
  }

  async get(key: string): Promise<Readable> {
    const path = this.path(key);
    await stat(path);
    return createReadStream(path);
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
}

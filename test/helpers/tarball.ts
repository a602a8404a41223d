import { Header } from 'tar';
import { gzipSync } from 'node:zlib';

export interface TarEntry {
  path: string;
  /** tar entry type: File (default), Directory, SymbolicLink, Link, FIFO, ... */
  type?: string;
  body?: string | Buffer;
  linkpath?: string;
}

/**
 * A gzipped tar built entry by entry with the tar package's header encoder, so tests can write
 * archives no well-behaved packer would produce (`../evil`, absolute paths, escaping links).
 */
export function tarGz(entries: TarEntry[]): Buffer {
  return gzipSync(tarBytes(entries));
}

/** The same archive, not compressed: to append to or to gzip in parts. */
export function tarBytes(entries: TarEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const body = Buffer.from(entry.body ?? '');
    const header = new Header({
      path: entry.path,
      type: (entry.type ?? 'File') as Header['type'],
      size: body.length,
      mode: entry.type === 'Directory' ? 0o755 : 0o644,
      uid: 0,
      gid: 0,
      mtime: new Date(0),
      linkpath: entry.linkpath,
    });
    const block = Buffer.alloc(512);
    header.encode(block, 0);
    blocks.push(block, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

/** The smallest policy set archive Plinth accepts: a `sentinel.hcl` and the one policy it names. */
export const MINIMAL_POLICY_ARCHIVE = tarGz([
  { path: 'sentinel.hcl', body: 'policy "p" {\n  enforcement_level = "advisory"\n}\n' },
  { path: 'p.sentinel', body: 'main = rule { true }\n' },
]);

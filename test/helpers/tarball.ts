import { Header } from 'tar';
import { gzipSync } from 'node:zlib';

export interface TarEntry {
  path: string;
  /** tar entry type: File (default), Directory, SymbolicLink, Link, FIFO, ... */
  type?: string;
  body?: string | Buffer;
  linkpath?: string;
  /** Records of a pax extended header (`x`) written just before the entry. */
  pax?: Record<string, string>;
  /** A GNU long-name record (`L`) written just before the entry. */
  gnuPath?: string;
  /** A GNU long-link record (`K`) written just before the entry. */
  gnuLinkpath?: string;
}

/**
 * A gzipped tar built entry by entry with the tar package's header encoder, so tests can write
 * archives no well-behaved packer would produce (`../evil`, absolute paths, escaping links, pax and
 * GNU records that say something else than the header after them).
 */
export function tarGz(entries: TarEntry[]): Buffer {
  return gzipSync(tarBytes(entries));
}

/** One `<length> <key>=<value>\n` pax record, its length counting itself. */
export function paxRecord(key: string, value: string): string {
  const rest = Buffer.byteLength(` ${key}=${value}\n`);
  let length = rest + 1;
  while (String(length).length + rest !== length) length = String(length).length + rest;
  return `${length} ${key}=${value}\n`;
}

/** A header block and its padded body, fields as given (the encoder cuts what does not fit). */
export function tarRecord(path: string, type: string, body: string | Buffer = '', linkpath?: string): Buffer {
  const bytes = Buffer.from(body);
  const header = new Header({
    path,
    type: type as Header['type'],
    size: bytes.length,
    mode: type === 'Directory' ? 0o755 : 0o644,
    uid: 0,
    gid: 0,
    mtime: new Date(0),
    linkpath,
  });
  const block = Buffer.alloc(512);
  header.encode(block, 0);
  return Buffer.concat([block, bytes, Buffer.alloc((512 - (bytes.length % 512)) % 512)]);
}

/** The same archive, not compressed: to append to or to gzip in parts. */
export function tarBytes(entries: TarEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    if (entry.pax) {
      const records = Object.entries(entry.pax).map(([key, value]) => paxRecord(key, value));
      blocks.push(tarRecord('PaxHeader/entry', 'ExtendedHeader', records.join('')));
    }
    if (entry.gnuPath !== undefined) {
      blocks.push(tarRecord('././@LongLink', 'NextFileHasLongPath', `${entry.gnuPath}\0`));
    }
    if (entry.gnuLinkpath !== undefined) {
      blocks.push(tarRecord('././@LongLink', 'NextFileHasLongLinkpath', `${entry.gnuLinkpath}\0`));
    }
    blocks.push(tarRecord(entry.path, entry.type ?? 'File', entry.body, entry.linkpath));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

/** The smallest policy set archive Plinth accepts: a `sentinel.hcl` and the one policy it names. */
export const MINIMAL_POLICY_ARCHIVE = tarGz([
  { path: 'sentinel.hcl', body: 'policy "p" {\n  enforcement_level = "advisory"\n}\n' },
  { path: 'p.sentinel', body: 'main = rule { true }\n' },
]);

import { Header, HeaderData, Pax } from 'tar';
import { isAbsolutePath, LinkTree, MAX_PATH_LENGTH, pathParts } from './archive-links';

export type ArchiveEntryType = 'file' | 'directory' | 'symlink' | 'hardlink';

/** One entry of an inspected archive, its path normalized (no `./`, no trailing `/`; the root is `.`). */
export interface ArchiveEntry {
  path: string;
  type: ArchiveEntryType;
  size: number;
}

const BLOCK = 512;
const ZEROS = Buffer.alloc(64 * 1024);
/** Largest pax or GNU long-name record read; a larger one is refused (tar's own limit). */
const MAX_META_BYTES = 1024 * 1024;

const KINDS: Record<string, ArchiveEntryType> = {
  File: 'file',
  OldFile: 'file',
  ContiguousFile: 'file',
  Directory: 'directory',
  SymbolicLink: 'symlink',
  Link: 'hardlink',
};
const META = new Set([
  'ExtendedHeader',
  'OldExtendedHeader',
  'GlobalExtendedHeader',
  'NextFileHasLongPath',
  'OldGnuLongPath',
  'NextFileHasLongLinkpath',
]);

const shown = (path: string) => (path.length > 200 ? `${path.slice(0, 200)}…` : path);
const TRAILING_DATA = 'the archive has data after its end-of-archive marker';
const invalid = (why: string) => `the archive is not a valid tar archive (${why})`;

function allZero(chunk: Buffer): boolean {
  for (let at = 0; at < chunk.length; at += ZEROS.length) {
    const part = chunk.subarray(at, at + ZEROS.length);
    if (!part.equals(ZEROS.subarray(0, part.length))) return false;
  }
  return true;
}

/**
 * Reads a tar stream block by block without extracting it and says why it is unacceptable, or
 * null. Work is linear in the bytes given: bodies are skipped by counting, a header split across
 * chunks is the only thing ever copied (at most one block), and after the end-of-archive marker
 * the rest is only compared with zeros (tar's own Parser instead concatenated every chunk after the
 * marker onto everything before it, which made zero-filled archives quadratic).
 *
 * Entries are refused for absolute paths, `..`, types other than files, directories and links,
 * links that lead outside the archive when resolved the way an extracting tar would, and anything
 * but zeros after the end-of-archive marker.
 */
export class TarScanner {
  readonly entries: ArchiveEntry[] = [];
  private readonly links = new LinkTree();
  private state: 'header' | 'body' | 'meta' | 'end' = 'header';
  /** The start of a header block that arrived split across chunks. */
  private partial: Buffer | null = null;
  private bodyLeft = 0;
  private padLeft = 0;
  private bodyOf = '';
  private meta: Buffer[] = [];
  private metaType = '';
  private ex: HeaderData | undefined;
  private gex: HeaderData | undefined;
  private headers = 0;
  private sawZeroBlock = false;

  constructor(private readonly maxEntries: number) {}

  /** Takes the next bytes of the tar stream; returns why the archive is refused, or null. */
  write(chunk: Buffer): string | null {
    let at = 0;
    while (at < chunk.length) {
      if (this.state === 'end') return allZero(chunk.subarray(at)) ? null : TRAILING_DATA;
      if (this.state === 'body' || this.state === 'meta') {
        at += this.consumeBody(chunk, at);
        continue;
      }
      let block: Buffer;
      if (this.partial) {
        const need = BLOCK - this.partial.length;
        this.partial = Buffer.concat([this.partial, chunk.subarray(at, at + need)]);
        at += Math.min(need, chunk.length - at);
        if (this.partial.length < BLOCK) return null;
        block = this.partial;
        this.partial = null;
      } else if (chunk.length - at < BLOCK) {
        this.partial = Buffer.from(chunk.subarray(at));
        return null;
      } else {
        block = chunk.subarray(at, at + BLOCK);
        at += BLOCK;
      }
      const problem = this.header(block);
      if (problem) return problem;
    }
    return null;
  }

  /** The stream ended: says whether it ended where a tar archive may end. */
  end(): string | null {
    if (this.state === 'body' || this.state === 'meta') {
      return invalid(`it ends inside entry ${shown(this.bodyOf)}`);
    }
    if (this.partial) return invalid('it ends inside a header block');
    if (this.headers === 0 && !this.sawZeroBlock) return invalid('it holds no tar header');
    const broken = this.links.firstBrokenLink();
    if (broken) return this.linkProblem(broken.parts.join('/'), broken.why);
    return null;
  }

  private consumeBody(chunk: Buffer, at: number): number {
    const take = Math.min(chunk.length - at, this.bodyLeft + this.padLeft);
    const body = Math.min(take, this.bodyLeft);
    if (this.state === 'meta' && body > 0) this.meta.push(Buffer.from(chunk.subarray(at, at + body)));
    this.bodyLeft -= body;
    this.padLeft -= take - body;
    if (this.bodyLeft === 0 && this.padLeft === 0) {
      if (this.state === 'meta') this.applyMeta();
      this.state = 'header';
    }
    return take;
  }

  private startBody(size: number, state: 'body' | 'meta', path: string): void {
    this.bodyLeft = size;
    this.padLeft = (BLOCK - (size % BLOCK)) % BLOCK;
    this.bodyOf = path;
    if (size > 0) this.state = state;
    else if (state === 'meta') this.applyMeta();
  }

  private applyMeta(): void {
    const text = Buffer.concat(this.meta).toString('utf8');
    this.meta = [];
    switch (this.metaType) {
      case 'ExtendedHeader':
      case 'OldExtendedHeader':
        this.ex = Pax.parse(text, this.ex, false);
        break;
      case 'GlobalExtendedHeader':
        this.gex = Pax.parse(text, this.gex, true);
        break;
      case 'NextFileHasLongPath':
      case 'OldGnuLongPath':
        this.ex = { ...this.ex, path: text.replace(/\0.*/s, '') };
        break;
      default:
        this.ex = { ...this.ex, linkpath: text.replace(/\0.*/s, '') };
    }
  }

  private header(block: Buffer): string | null {
    if (block.equals(ZEROS.subarray(0, BLOCK))) {
      if (this.sawZeroBlock) this.state = 'end';
      this.sawZeroBlock = true;
      return null;
    }
    this.sawZeroBlock = false;
    if (++this.headers > this.maxEntries) {
      return `the archive has more than ${this.maxEntries} entries (the entry-count cap)`;
    }
    const header = new Header(block, 0, this.ex, this.gex);
    if (!header.cksumValid) return invalid(`entry ${this.headers} has a bad header checksum`);
    const size = header.size;
    if (size === undefined || !Number.isSafeInteger(size)) {
      return invalid(`entry ${this.headers} has no valid size`);
    }
    const type = header.type;
    if (META.has(type)) {
      if (size > MAX_META_BYTES)
        return `entry ${this.headers} has an extended header over ${MAX_META_BYTES} bytes`;
      this.metaType = type;
      this.startBody(size, 'meta', `${this.headers}`);
      return null;
    }
    this.ex = undefined;
    const path = header.path ?? '';
    if (!path) return invalid(`entry ${this.headers} has no path`);
    const problem = this.entryProblem(path, type, header.linkpath, size);
    if (problem) return problem;
    this.startBody(size, 'body', path);
    return null;
  }

  private entryProblem(
    rawPath: string,
    type: string,
    rawLink: string | undefined,
    size: number,
  ): string | null {
    const kind = KINDS[type] as ArchiveEntryType | undefined;
    const problem = pathProblem(rawPath, type, rawLink);
    if (problem || !kind)
      return problem ?? `entry ${shown(rawPath)} is a ${type}, which an uploaded archive may not contain`;
    const at = this.links.resolve(rawPath, false);
    if (!at.ok) return `entry ${shown(rawPath)} leads outside the archive through a link`;
    this.entries.push({ path: pathParts(rawPath).join('/') || '.', type: kind, size });
    if (kind === 'symlink' || kind === 'hardlink') {
      if (size > 0) return `link ${shown(rawPath)} has a body, which tar readers disagree on`;
      return this.linkEntry(rawPath, at.parts, kind, rawLink ?? '');
    }
    return null;
  }

  private linkEntry(
    rawPath: string,
    parts: string[],
    kind: 'symlink' | 'hardlink',
    link: string,
  ): string | null {
    let target = link;
    if (kind === 'hardlink') {
      // A hard link names its target from the archive root; linking to a symbolic link copies the
      // link itself, whose relative target then reads from the new place.
      const source = this.links.resolve(link, false);
      if (!source.ok) return this.linkProblem(rawPath, source.why);
      const copied = this.links.linkAt(source.parts);
      if (copied === undefined) return null;
      target = copied;
    }
    const resolution = this.links.follow(parts, target);
    if (!resolution.ok) return this.linkProblem(rawPath, resolution.why);
    this.links.addLink(parts, target);
    return null;
  }

  private linkProblem(path: string, why: 'escapes' | 'loops'): string {
    return why === 'escapes'
      ? `link ${shown(path)} points outside the archive`
      : `link ${shown(path)} resolves through too many links`;
  }
}

/** What is wrong with an entry's own path, type and link text, before any link is followed. */
export function pathProblem(rawPath: string, type: string, rawLink?: string): string | null {
  const path = rawPath.replace(/\\/g, '/');
  if (path.length > MAX_PATH_LENGTH)
    return `entry ${shown(rawPath)} has a path over ${MAX_PATH_LENGTH} characters`;
  if (isAbsolutePath(path)) return `entry ${shown(rawPath)} has an absolute path`;
  if (path.split('/').includes('..')) return `entry ${shown(rawPath)} contains ".." in its path`;
  if (type === 'SymbolicLink' || type === 'Link') {
    const link = (rawLink ?? '').replace(/\\/g, '/');
    if (link.length > MAX_PATH_LENGTH)
      return `link ${shown(rawPath)} has a target over ${MAX_PATH_LENGTH} characters`;
    if (!link || isAbsolutePath(link)) return `link ${shown(rawPath)} points outside the archive`;
  }
  return null;
}

import { Header } from 'tar';
import {
  isAbsolutePath,
  LinkProblem,
  LinkTree,
  MAX_PATH_LENGTH,
  pathParts,
  STEPS_PER_ENTRY,
} from './archive-links';
import { gnuLongText, headerLinkpath, headerPath, parsePax, PendingNames } from './tar-records';

export type ArchiveEntryType = 'file' | 'directory' | 'symlink' | 'hardlink';

/** One entry of an inspected archive, its path normalized (no `./`, no trailing `/`; the root is `.`). */
export interface ArchiveEntry {
  path: string;
  type: ArchiveEntryType;
  size: number;
}

const BLOCK = 512;
/** The typeflag byte of a regular file, `0`. */
const FILE_TYPEFLAG = 0x30;
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
/**
 * Extended headers and what they carry for the entry after them. (GNU's old `N` type is not one:
 * readers that do not know it extract it as a file, under its own name.)
 */
const META: Record<string, 'pax' | 'global' | 'path' | 'linkpath'> = {
  ExtendedHeader: 'pax',
  OldExtendedHeader: 'pax',
  GlobalExtendedHeader: 'global',
  NextFileHasLongPath: 'path',
  NextFileHasLongLinkpath: 'linkpath',
};

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

/** Whether the size field says anything but 0 (tar's Header reads a directory's as 0 whatever it says). */
function sizeFieldIsNonZero(block: Buffer): boolean {
  if (block[124] & 0x80) return block.subarray(125, 136).some((byte) => byte !== 0);
  return /[1-7]/.test(block.toString('latin1', 124, 136).replace(/\0.*$/s, ''));
}

/**
 * Reads a tar stream block by block without extracting it and says why it is unacceptable, or
 * null. Work is linear in the bytes given: bodies are skipped by counting, a header split across
 * chunks is the only thing ever copied (at most one block), and after the end-of-archive marker
 * the rest is only compared with zeros (tar's own Parser instead concatenated every chunk after the
 * marker onto everything before it, which made zero-filled archives quadratic). Resolving paths
 * through links is paid for out of the entry-count cap (STEPS_PER_ENTRY steps per entry).
 *
 * Entries are refused for absolute paths, `..`, types other than files, directories and links,
 * links that lead outside the archive when resolved the way an extracting tar would, anything but
 * zeros after the end-of-archive marker, and extended headers that tar readers would read
 * differently. An entry's path and link target are the ones extractors use: a pax `path` or
 * `linkpath`, or a GNU long name or long link, when there is one, else the header's own fields.
 */
export class TarScanner {
  readonly entries: ArchiveEntry[] = [];
  private readonly links: LinkTree;
  private state: 'header' | 'body' | 'meta' | 'end' = 'header';
  /** The start of a header block that arrived split across chunks. */
  private partial: Buffer | null = null;
  private bodyLeft = 0;
  private padLeft = 0;
  private bodyOf = '';
  private meta: Buffer[] = [];
  private metaKind: (typeof META)[string] = 'pax';
  private readonly pending = new PendingNames();
  private headers = 0;
  private sawZeroBlock = false;

  constructor(private readonly maxEntries: number) {
    this.links = new LinkTree(maxEntries * STEPS_PER_ENTRY);
  }

  /** Takes the next bytes of the tar stream; returns why the archive is refused, or null. */
  write(chunk: Buffer): string | null {
    let at = 0;
    while (at < chunk.length) {
      if (this.state === 'end') return allZero(chunk.subarray(at)) ? null : TRAILING_DATA;
      if (this.state === 'body' || this.state === 'meta') {
        const taken = this.consumeBody(chunk, at);
        if (typeof taken === 'string') return taken;
        at += taken;
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

  /** Bytes of `chunk` from `at` taken as body or padding, or why the record they end is refused. */
  private consumeBody(chunk: Buffer, at: number): number | string {
    const take = Math.min(chunk.length - at, this.bodyLeft + this.padLeft);
    const body = Math.min(take, this.bodyLeft);
    if (this.state === 'meta' && body > 0) this.meta.push(Buffer.from(chunk.subarray(at, at + body)));
    this.bodyLeft -= body;
    this.padLeft -= take - body;
    if (this.bodyLeft === 0 && this.padLeft === 0) {
      const problem = this.state === 'meta' ? this.applyMeta() : null;
      this.state = 'header';
      if (problem) return problem;
    }
    return take;
  }

  private startBody(size: number, state: 'body' | 'meta', path: string): string | null {
    this.bodyLeft = size;
    this.padLeft = (BLOCK - (size % BLOCK)) % BLOCK;
    this.bodyOf = path;
    if (size > 0) this.state = state;
    else if (state === 'meta') return this.applyMeta();
    return null;
  }

  private applyMeta(): string | null {
    const body = Buffer.concat(this.meta);
    this.meta = [];
    let problem: string | null;
    if (this.metaKind === 'pax' || this.metaKind === 'global') {
      const parsed = parsePax(body, this.metaKind === 'global');
      if (!parsed.ok) problem = parsed.reason;
      else problem = this.metaKind === 'pax' ? this.pending.addPax(parsed.records) : null;
    } else {
      problem = this.pending.addGnu(this.metaKind, gnuLongText(body));
    }
    return problem && `entry ${this.bodyOf} has ${problem}`;
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
    // The header's own fields only: what extended headers replace is read here, more strictly.
    const header = new Header(block, 0);
    if (!header.cksumValid) return invalid(`entry ${this.headers} has a bad header checksum`);
    const ownSize = header.size;
    if (ownSize === undefined || !Number.isSafeInteger(ownSize)) {
      return invalid(`entry ${this.headers} has no valid size`);
    }
    const type = header.type;
    const meta = META[type] as (typeof META)[string] | undefined;
    if (meta) {
      if (ownSize > MAX_META_BYTES)
        return `entry ${this.headers} has an extended header over ${MAX_META_BYTES} bytes`;
      const problem = this.pending.beforeMeta();
      if (problem) return `entry ${this.headers} has ${problem}`;
      this.metaKind = meta;
      return this.startBody(ownSize, 'meta', `${this.headers}`);
    }
    const extended = this.pending.take();
    let path = extended.path;
    if (path === undefined) {
      const own = headerPath(block);
      if ('problem' in own) return `entry ${this.headers} has ${own.problem}`;
      path = own.path;
    }
    if (!path) return invalid(`entry ${this.headers} has no path`);
    const declared = extended.size ?? ownSize;
    // tar's Header and GNU tar read a regular file whose name ends in `/` as a directory and skip
    // no body; Python's tarfile and Go read a file and skip its body.
    const fileAsDirectory = block[156] === FILE_TYPEFLAG && (path.endsWith('/') || type === 'Directory');
    if (fileAsDirectory && (declared > 0 || sizeFieldIsNonZero(block))) {
      return `entry ${shown(path)} is a file whose name ends in "/", which tar readers disagree on`;
    }
    // A directory has no body whatever its size says: tar readers skip none.
    const size = type === 'Directory' ? 0 : declared;
    const problem = this.entryProblem(path, type, extended.linkpath ?? headerLinkpath(block), size);
    if (problem) return problem;
    return this.startBody(size, 'body', path);
  }

  private entryProblem(rawPath: string, type: string, rawLink: string, size: number): string | null {
    const kind = KINDS[type] as ArchiveEntryType | undefined;
    const problem = pathProblem(rawPath, type, rawLink);
    if (problem || !kind)
      return problem ?? `entry ${shown(rawPath)} is a ${type}, which an uploaded archive may not contain`;
    const at = this.links.resolve(rawPath, false);
    if (!at.ok) {
      return at.why === 'costly'
        ? this.tooCostly()
        : `entry ${shown(rawPath)} leads outside the archive through a link`;
    }
    this.entries.push({ path: pathParts(rawPath).join('/') || '.', type: kind, size });
    if (kind === 'symlink' || kind === 'hardlink') {
      if (size > 0) return `link ${shown(rawPath)} has a body, which tar readers disagree on`;
      return this.linkEntry(rawPath, at.parts, kind, rawLink);
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

  private linkProblem(path: string, why: LinkProblem): string {
    switch (why) {
      case 'escapes':
        return `link ${shown(path)} points outside the archive`;
      case 'loops':
        return `link ${shown(path)} resolves through too many links`;
      case 'costly':
        return this.tooCostly();
    }
  }

  private tooCostly(): string {
    return (
      `the archive has more than ${this.maxEntries} entries once its links are counted at their cost ` +
      `(resolving its paths takes more than ${this.maxEntries * STEPS_PER_ENTRY} steps, ` +
      `${STEPS_PER_ENTRY} per entry; the entry-count cap)`
    );
  }
}

/** What is wrong with an entry's own path, type and link text, before any link is followed. */
export function pathProblem(rawPath: string, type: string, rawLink: string): string | null {
  const path = rawPath.replace(/\\/g, '/');
  if (path.length > MAX_PATH_LENGTH)
    return `entry ${shown(rawPath)} has a path over ${MAX_PATH_LENGTH} characters`;
  if (isAbsolutePath(path)) return `entry ${shown(rawPath)} has an absolute path`;
  if (path.split('/').includes('..')) return `entry ${shown(rawPath)} contains ".." in its path`;
  if (type === 'SymbolicLink' || type === 'Link') {
    const link = rawLink.replace(/\\/g, '/');
    if (link.length > MAX_PATH_LENGTH)
      return `link ${shown(rawPath)} has a target over ${MAX_PATH_LENGTH} characters`;
    if (!link || isAbsolutePath(link)) return `link ${shown(rawPath)} points outside the archive`;
  }
  return null;
}

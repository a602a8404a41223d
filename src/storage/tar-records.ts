/**
 * The names an entry really has: its header's own fields, and the pax and GNU records before it
 * that replace them. Tar readers agree on well-formed records but not on odd ones (a pax length
 * that does not match its line, a path and a GNU long name that differ, a global `path`), and an
 * archive that two readers extract differently can pass one check and write elsewhere through the
 * other. So records are read strictly and any disagreement refuses the archive.
 */

/** What one pax extended header said about the names and size of the next entry. */
export interface PaxRecords {
  path?: string;
  linkpath?: string;
  size?: number;
}

export type PaxParse = { ok: true; records: PaxRecords } | { ok: false; reason: string };

const DISAGREE = ', which tar readers disagree on';
const SPACE = 0x20;
const EQUALS = 0x3d;
const NEWLINE = 0x0a;

/**
 * Parses a pax header body: `<length> <key>=<value>\n` records, the length counting the whole
 * record in bytes. Unlike tar's own parser (which splits on newlines and skips what does not add
 * up), a record that does not parse exactly refuses the header: readers that trust the length
 * would take a value with a newline in it that a line-by-line reader never saw.
 */
export function parsePax(body: Buffer, global: boolean): PaxParse {
  const records: PaxRecords = {};
  const malformed = { ok: false as const, reason: 'a malformed pax extended header' };
  let at = 0;
  while (at < body.length) {
    const space = body.indexOf(SPACE, at);
    if (space <= at || space - at > 16) return malformed;
    const digits = body.toString('latin1', at, space);
    if (!/^\d+$/.test(digits)) return malformed;
    const end = at + Number(digits);
    if (end > body.length || end <= space + 2 || body[end - 1] !== NEWLINE) return malformed;
    const equals = body.indexOf(EQUALS, space + 1);
    if (equals <= space + 1 || equals >= end) return malformed;
    const key = body.toString('utf8', space + 1, equals);
    const value = body.toString('utf8', equals + 1, end - 1);
    const problem = record(records, key, value, global);
    if (problem) return { ok: false, reason: problem };
    at = end;
  }
  return { ok: true, records };
}

function record(records: PaxRecords, key: string, value: string, global: boolean): string | null {
  if (key.startsWith('GNU.sparse.'))
    return 'a pax header for a sparse file, which an uploaded archive may not contain';
  if (key !== 'path' && key !== 'linkpath' && key !== 'size') return null;
  // Readers disagree on what a global name or size means, and on an empty or NUL-cut value.
  if (global) return `a global pax header with a ${key}${DISAGREE}`;
  if (key === 'size') {
    if (!/^\d{1,15}$/.test(value)) return `a pax size that is not a whole number${DISAGREE}`;
    records.size = Number(value);
  } else {
    if (value === '' || value.includes('\0')) return `an empty or NUL-cut pax ${key}${DISAGREE}`;
    records[key] = value;
  }
  return null;
}

/** A GNU long-name or long-link record: the text up to its first NUL, as GNU tar reads it. */
export const gnuLongText = (body: Buffer): string => {
  const nul = body.indexOf(0);
  return body.toString('utf8', 0, nul < 0 ? body.length : nul);
};

/**
 * The extended records that apply to the next entry, kept apart by origin so that two that
 * disagree are caught: readers differ on which of two long names wins (GNU tar takes the last,
 * Python's tarfile the first; pax over GNU or the other way round).
 */
export class PendingNames {
  private paths = new Set<string>();
  private links = new Set<string>();
  private size: number | undefined;

  /** Adds a pax header's records; says why they cannot apply, or null. */
  addPax(records: PaxRecords): string | null {
    // Any extended header after one with a size is refused (beforeMeta), so there is at most one.
    this.size = records.size;
    if (records.path !== undefined) this.paths.add(records.path);
    if (records.linkpath !== undefined) this.links.add(records.linkpath);
    return this.conflict();
  }

  addGnu(kind: 'path' | 'linkpath', text: string): string | null {
    if (text === '') return `an empty GNU long ${kind === 'path' ? 'name' : 'link'}`;
    (kind === 'path' ? this.paths : this.links).add(text);
    return this.conflict();
  }

  /** Before another extended header: some readers would take a pending pax size as that header's own. */
  beforeMeta(): string | null {
    return this.size === undefined ? null : `a pax size before another extended header${DISAGREE}`;
  }

  /** The records for the entry that follows, which takes them all; the set is then empty again. */
  take(): { path?: string; linkpath?: string; size?: number } {
    const taken = { path: first(this.paths), linkpath: first(this.links), size: this.size };
    this.paths = new Set();
    this.links = new Set();
    this.size = undefined;
    return taken;
  }

  private conflict(): string | null {
    if (this.paths.size > 1) return `extended headers that name it differently${DISAGREE}`;
    if (this.links.size > 1) return `extended headers that give it different link targets${DISAGREE}`;
    return null;
  }
}

const first = (values: Set<string>): string | undefined => values.values().next().value;

const field = (block: Buffer, at: number, length: number): string => {
  const end = block.indexOf(0, at);
  return block.toString('utf8', at, end < 0 || end > at + length ? at + length : end);
};

const POSIX_MAGIC = Buffer.from('ustar\0', 'latin1');
const STAR_TRAILER = Buffer.from('tar\0', 'latin1');

/** The link target a header's own field gives. */
export const headerLinkpath = (block: Buffer): string => field(block, 157, 100);

/**
 * The path a header's own fields give, or why readers would disagree on it: the ustar prefix is
 * read only under the POSIX magic here, but Python's tarfile prepends any non-empty prefix field
 * whatever the magic, and Go reads only 131 bytes of it in a star header.
 */
export function headerPath(block: Buffer): { path: string } | { problem: string } {
  const name = field(block, 0, 100);
  const prefix = field(block, 345, 155);
  if (!prefix) return { path: name };
  if (!block.subarray(257, 263).equals(POSIX_MAGIC)) {
    return { problem: `a name prefix outside a ustar header${DISAGREE}` };
  }
  if (Buffer.byteLength(prefix) > 130 && block.subarray(508, 512).equals(STAR_TRAILER)) {
    return { problem: `a name prefix that star readers cut short${DISAGREE}` };
  }
  return { path: `${prefix}/${name}` };
}

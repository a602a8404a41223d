import { posix } from 'node:path';
import { Readable, Transform, TransformCallback } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { Parser, ReadEntry } from 'tar';

export type Inspection = { ok: true; files: number } | { ok: false; reason: string };

const REGULAR = new Set(['File', 'OldFile', 'ContiguousFile']);
const ALLOWED = new Set([...REGULAR, 'Directory', 'SymbolicLink', 'Link']);

const shown = (path: string) => (path.length > 200 ? `${path.slice(0, 200)}…` : path);

function isAbsolute(path: string): boolean {
  return path.startsWith('/') || /^[A-Za-z]:/.test(path);
}

/** True when a path, relative to the archive root, climbs out of it. */
function escapes(relative: string): boolean {
  const normal = posix.normalize(relative);
  return normal === '..' || normal.startsWith('../');
}

/**
 * Why one archive entry is unacceptable, or null. Backslashes count as separators so an archive
 * cannot smuggle `..\` past a check and out on a host that reads them as such.
 */
export function entryProblem(rawPath: string, type: string, rawLink?: string): string | null {
  const path = rawPath.replace(/\\/g, '/');
  if (isAbsolute(path)) return `entry ${shown(rawPath)} has an absolute path`;
  if (path.split('/').includes('..')) return `entry ${shown(rawPath)} contains ".." in its path`;
  if (!ALLOWED.has(type))
    return `entry ${shown(rawPath)} is a ${type}, which a policy archive may not contain`;
  if (type === 'SymbolicLink' || type === 'Link') {
    const link = (rawLink ?? '').replace(/\\/g, '/');
    // A symbolic link resolves from its own directory, a hard link from the archive root.
    const target = type === 'SymbolicLink' ? posix.join(posix.dirname(path), link) : link;
    if (!link || isAbsolute(link) || escapes(target)) {
      return `link ${shown(rawPath)} points outside the archive`;
    }
  }
  return null;
}

/** Fails the stream once more than `max` bytes passed: a small archive must not expand without end. */
class ExpansionLimit extends Transform {
  private seen = 0;

  constructor(private readonly max: number) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.max) done(new Error(`the archive expands to more than ${this.max} bytes`));
    else done(null, chunk);
  }
}

/**
 * Reads a tar.gz stream without extracting it and says whether it is a policy archive we accept:
 * valid gzip and tar, no absolute paths, no `..`, no links leading outside, no device or FIFO
 * entries, at least one regular file. Rejects only when reading the source itself fails.
 */
export function inspectArchive(source: Readable, options: { maxExpandedBytes: number }): Promise<Inspection> {
  return new Promise<Inspection>((resolve, reject) => {
    const gunzip = createGunzip();
    const limit = new ExpansionLimit(options.maxExpandedBytes);
    let files = 0;
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      source.unpipe(gunzip);
      gunzip.unpipe(limit);
      source.destroy();
      gunzip.destroy();
      limit.destroy();
      outcome();
    };
    const refuse = (reason: string) => settle(() => resolve({ ok: false, reason }));
    const parser = new Parser({
      strict: true,
      onReadEntry: (entry: ReadEntry) => {
        const problem = entryProblem(entry.path, entry.type, entry.linkpath);
        if (problem) refuse(problem);
        else if (REGULAR.has(entry.type)) files += 1;
        entry.resume();
      },
    });
    parser.on('error', (err: Error) => refuse(`the archive is not a valid tar archive (${err.message})`));
    parser.on('end', () => {
      if (files === 0) refuse('the archive contains no regular file');
      else settle(() => resolve({ ok: true, files }));
    });
    source.on('error', (err) => settle(() => reject(err)));
    gunzip.on('error', (err) => refuse(`the upload is not a valid gzip stream (${err.message})`));
    limit.on('error', (err) => refuse(err.message));
    source.pipe(gunzip).pipe(limit).pipe(parser);
  });
}

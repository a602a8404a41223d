import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/*
 * For specs that read the source to enforce a rule (the cache seam, the request context): a
 * breach fails naming its file and line.
 */

const SRC = join(__dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(path);
    return /\.ts$/.test(entry.name) && !/\.(spec|testing)\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** `code` with its comment lines blanked, so a rule's name in a comment is not a breach of it. */
function withoutCommentLines(code: string): string {
  return code
    .split('\n')
    .map((line) => (/^\s*(\*|\/\*|\/\/)/.test(line) ? '' : line))
    .join('\n');
}

/**
 * Every match of `pattern` (global) in non-test source under src/, outside comments, as
 * `file:line` (the file relative to src/) and the match; a match may span lines
 * (`this.epoch\n  .advance()`).
 */
export function matchesInSource(pattern: RegExp): { at: string; match: RegExpMatchArray }[] {
  return sourceFiles(SRC).flatMap((path) => {
    const code = withoutCommentLines(readFileSync(path, 'utf8'));
    return [...code.matchAll(pattern)].map((match) => ({
      at: `${relative(SRC, path)}:${code.slice(0, match.index).split('\n').length}`,
      match,
    }));
  });
}

/** The file of a `file:line`. */
export const fileOf = (at: string) => at.slice(0, at.indexOf(':'));

import { invalid } from '../../common/errors/domain-error';

/** Longest filename a SHA256SUMS line may name (the platform filename column holds as much). */
export const MAX_SUMS_FILENAME = 255;

const LINE = /^([0-9A-Fa-f]{64}) [ *](.+)$/;

/**
 * Parses a SHA256SUMS document in `sha256sum` output format: one `<64 hex>  <filename>` line per
 * file (a `*` in place of the second space marks binary mode). Returns filename → lower-case hex.
 * Anything else (no lines, a malformed line, a filename listed twice, bytes that are not UTF-8)
 * is a 422 that names the first problem.
 */
export function parseSha256Sums(bytes: Uint8Array): Map<string, string> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw invalid('SHA256SUMS must be UTF-8 text');
  }
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const entries = new Map<string, string>();
  lines.forEach((raw, index) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const match = LINE.exec(line);
    if (!match) {
      throw invalid(`SHA256SUMS line ${index + 1} is not "<64 hex digits>  <filename>"`);
    }
    const [, hash, filename] = match;
    if (filename.length > MAX_SUMS_FILENAME) {
      throw invalid(`SHA256SUMS line ${index + 1} names a file longer than ${MAX_SUMS_FILENAME} characters`);
    }
    if (entries.has(filename)) throw invalid(`SHA256SUMS lists ${filename} more than once`);
    entries.set(filename, hash.toLowerCase());
  });
  if (!entries.size) throw invalid('SHA256SUMS lists no files');
  return entries;
}

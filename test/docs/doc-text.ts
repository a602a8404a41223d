import { existsSync } from 'fs';
import { resolve } from 'path';

export const ROOT = resolve(__dirname, '../..');

/**
 * Paths a document names in code spans, parentheses or plain text (`http/route-table.ts`,
 * (common/rate-limit/), src/…, test/…, docs/…), as written.
 */
export function namedPaths(text: string): string[] {
  const found = new Set<string>();
  const pattern = /(?<=[`(\s])((?:[a-z0-9-]+\/)+(?:[a-z0-9-]+\.(?:ts|md|mjs|js|json)|))(?=[`),:;\s])/g;
  for (const match of text.matchAll(pattern)) {
    const path = match[1];
    // A folder's own name (`auth/` in the layout) says nothing to check; the build's output
    // (`dist/cli.js`) exists only after a build.
    if (path.replace(/\/$/, '').includes('/') && !path.startsWith('dist/')) found.add(path);
  }
  return [...found].sort();
}

/** Those of `paths` that are neither under the repository's root nor under src/. */
export function missingPaths(paths: string[]): string[] {
  return paths.filter(
    (p) => !['', 'src/'].some((base) => existsSync(resolve(ROOT, base + p.replace(/\/$/, '')))),
  );
}

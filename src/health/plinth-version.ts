import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Plinth's own version, from the package.json beside `src/` or `dist/` (the image copies it too).
 * Read once at start-up; "unknown" rather than a failed boot if the file is missing.
 */
function readVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
      version?: unknown;
    };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

export const PLINTH_VERSION = readVersion();

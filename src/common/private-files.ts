import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Modes of everything Plinth writes under DATA_DIR: the database, the signing secret and stored
 * blobs are for this process's user alone, whatever the umask lets other users read.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` and any missing parent owner-only; an existing directory keeps its mode. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/**
 * Creates `file` empty and owner-only unless it exists, so that a library that opens it next (the
 * SQLite driver, whose journal files copy the database file's mode) does not pick the mode.
 */
export function ensurePrivateFile(file: string): void {
  ensurePrivateDir(dirname(file));
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
}

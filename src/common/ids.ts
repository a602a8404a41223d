import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Largest multiple of 62 below 256: bytes at or above it are rejected to keep the draw uniform. */
const LIMIT = 248;

export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < LIMIT) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A resource id: the type prefix, a dash and 16 base62 characters (`polset-3yVQZvHzf5j3WRJ1`). */
export function newId(prefix: string): string {
  return `${prefix}-${randomBase62(16)}`;
}

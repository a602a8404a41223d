import { randomFillSync } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Largest multiple of 62 below 256: bytes at or above it are rejected to keep the draw uniform. */
const LIMIT = 248;

/**
 * Random bytes are drawn from the CSPRNG a block at a time: one call per POOL_BYTES instead of one
 * per id (a call costs about as much as a thousand bytes of it). Each byte is zeroed once used, so
 * no secret made from it (a token) stays in the block.
 */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let used = POOL_BYTES;

function randomByte(): number {
  if (used === POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  const byte = pool[used];
  pool[used++] = 0;
  return byte;
}

export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < LIMIT) out += BASE62[byte % 62];
  }
  return out;
}

/** A resource id: the type prefix, a dash and 16 base62 characters (`polset-3yVQZvHzf5j3WRJ1`). */
export function newId(prefix: string): string {
  return `${prefix}-${randomBase62(16)}`;
}

import { Injectable } from '@nestjs/common';
import { randomBytes, scrypt, ScryptOptions, timingSafeEqual } from 'node:crypto';
import { AppConfig } from '../config/app-config';

/** scrypt's parameters: N (CPU and memory cost, a power of two), r (block size), p (parallelism). */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/** N = 2^cost with r = 8 and p = 1, as current guidance (OWASP) asks at cost 17. */
export function scryptParams(cost: number): ScryptParams {
  return { N: 2 ** cost, r: 8, p: 1 };
}

/** Hashes of earlier releases, `scrypt$<salt>$<hash>`, used Node's defaults without naming them. */
const EARLIER_RELEASES: ScryptParams = { N: 2 ** 14, r: 8, p: 1 };
/** A stored hash asking for more is damaged, not a password: it would take gigabytes to check. */
const LARGEST: ScryptParams = { N: 2 ** 20, r: 32, p: 16 };
const SALT_BYTES = 16;
const HASH_BYTES = 64;

/**
 * Hashes computed at once in this process. Each takes 128·N·r bytes (128 MiB at N = 2^17) on one of
 * libuv's four threads, which the file storage needs too: a flood of logins waits its turn here
 * instead of taking the memory and every thread.
 */
const CONCURRENT_HASHES = 2;
let hashing = 0;
const waiting: (() => void)[] = [];

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (hashing < CONCURRENT_HASHES) hashing += 1;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await work();
  } finally {
    // The slot passes straight to the next waiter, so `hashing` never drops below the work in flight.
    const next = waiting.shift();
    if (next) next();
    else hashing -= 1;
  }
}

function derive(password: string, salt: Buffer, bytes: number, params: ScryptParams): Promise<Buffer> {
  // Node refuses past `maxmem` (32 MiB by default); scrypt needs 128·r·(N + p + 2) bytes and a little more.
  const options: ScryptOptions = { ...params, maxmem: 128 * params.r * (params.N + params.p + 2) + 65_536 };
  return inTurn(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(password, salt, bytes, options, (err, key) => (err ? reject(err) : resolve(key))),
      ),
  );
}

/** `scrypt$<N>$<r>$<p>$<salt hex>$<hash hex>`: the hash names the parameters it was made with. */
export async function hashPassword(password: string, params: ScryptParams): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, HASH_BYTES, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('hex'), hash.toString('hex')].join('$');
}

interface StoredHash {
  params: ScryptParams;
  /** False for an earlier release's hash, whose parameters are implied. */
  named: boolean;
  salt: Buffer;
  hash: Buffer;
}

const HEX = /^(?:[0-9a-f]{2})+$/;

/** A stored hash in either format, or null for anything else. */
function parse(stored: string): StoredHash | null {
  const fields = stored.split('$');
  let params: ScryptParams;
  let saltHex: string;
  let hashHex: string;
  const named = fields.length === 6;
  if (fields.length === 3 && fields[0] === 'scrypt') {
    params = EARLIER_RELEASES;
    [, saltHex, hashHex] = fields;
  } else if (named && fields[0] === 'scrypt') {
    const [N, r, p] = fields.slice(1, 4).map((f) => (/^[1-9]\d{0,9}$/.test(f) ? Number(f) : 0));
    if (!isPowerOfTwo(N) || N > LARGEST.N || r < 1 || r > LARGEST.r || p < 1 || p > LARGEST.p) return null;
    params = { N, r, p };
    [, , , , saltHex, hashHex] = fields;
  } else {
    return null;
  }
  if (!HEX.test(saltHex) || !HEX.test(hashHex)) return null;
  return { params, named, salt: Buffer.from(saltHex, 'hex'), hash: Buffer.from(hashHex, 'hex') };
}

function isPowerOfTwo(n: number): boolean {
  return n >= 2 && (n & (n - 1)) === 0;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const actual = await derive(password, parsed.salt, parsed.hash.length, parsed.params);
  return timingSafeEqual(parsed.hash, actual);
}

/** Whether a stored hash was made otherwise than `params` would make it now (an earlier format included). */
export function needsRehash(stored: string, params: ScryptParams): boolean {
  const parsed = parse(stored);
  if (!parsed) return false;
  const made = parsed.params;
  return !parsed.named || made.N !== params.N || made.r !== params.r || made.p !== params.p;
}

/** Passwords at the configured cost (PASSWORD_HASH_COST); see `hashPassword` for the format. */
@Injectable()
export class PasswordHasher {
  readonly params: ScryptParams;
  private dummy?: Promise<string>;

  constructor(config: AppConfig) {
    this.params = scryptParams(config.passwordHashCost);
  }

  hash(password: string): Promise<string> {
    return hashPassword(password, this.params);
  }

  verify(password: string, stored: string): Promise<boolean> {
    return verifyPassword(password, stored);
  }

  needsRehash(stored: string): boolean {
    return needsRehash(stored, this.params);
  }

  /** A check against no user's hash at the cost of a real one: an unknown username takes as long. */
  async verifyAgainstNobody(password: string): Promise<void> {
    this.dummy ??= this.hash(randomBytes(16).toString('hex'));
    await verifyPassword(password, await this.dummy);
  }
}

import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Transform, TransformCallback } from 'node:stream';
import { KeyRing, MasterKey } from './key-ring';

/**
 * Envelope encryption, AES-256-GCM throughout: every object or value gets a random data key of its
 * own; the data key is stored wrapped (encrypted) by a master key, prefixed with that key's id.
 * Rotating the master key re-wraps data keys; the encrypted objects themselves never change.
 *
 *   wrapped data key   <key id>.<base64url(nonce | encrypted data key | tag)>
 *   sealed value       <wrapped data key>.<base64url(nonce | ciphertext | tag)>
 *   encrypted stream   "PLS1" | segment size (u32 BE) | segments of ciphertext + tag
 *
 * A stream is cut into segments sealed one by one (nonce: segment counter | last-segment flag), so
 * a reader gets authenticated bytes as they arrive and a cut-off, reordered or extended stream
 * fails. Every value and stream is bound to a context (what it is, where it lives): a ciphertext
 * moved to another place does not decrypt there.
 */

const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const MAGIC = Buffer.from('PLS1');
const HEADER_BYTES = MAGIC.length + 4;
/** Plaintext bytes per stream segment. */
export const SEGMENT_BYTES = 64 * 1024;

/** A secret that cannot be read: the key is not configured, or the bytes are not what was sealed. */
export class SecretError extends Error {
  constructor(
    readonly reason: 'unknown-key' | 'malformed' | 'tampered',
    message: string,
  ) {
    super(message);
    this.name = 'SecretError';
  }
}

const b64 = (bytes: Buffer) => bytes.toString('base64url');

function fromB64(text: string): Buffer {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new SecretError('malformed', 'not an encrypted secret');
  return Buffer.from(text, 'base64url');
}

function sealBytes(
  key: Buffer,
  plaintext: Buffer,
  aad: Buffer,
  nonce: Buffer = randomBytes(NONCE_BYTES),
): Buffer {
  const cipher = createCipheriv(ALGORITHM, key, nonce);
  cipher.setAAD(aad);
  return Buffer.concat([nonce, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
}

function openBytes(key: Buffer, sealed: Buffer, aad: Buffer, what: string): Buffer {
  if (sealed.length < NONCE_BYTES + TAG_BYTES) throw new SecretError('malformed', `${what} is too short`);
  return openWith(key, sealed.subarray(0, NONCE_BYTES), sealed.subarray(NONCE_BYTES), aad, what);
}

/** Opens `ciphertext | tag` sealed with `nonce`. */
function openWith(key: Buffer, nonce: Buffer, sealed: Buffer, aad: Buffer, what: string): Buffer {
  if (sealed.length < TAG_BYTES) throw new SecretError('malformed', `${what} is too short`);
  const decipher = createDecipheriv(ALGORITHM, key, nonce);
  decipher.setAAD(aad);
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw new SecretError('tampered', `${what} does not decrypt: it was changed or belongs elsewhere`);
  }
}

const wrapAad = (keyId: string) => Buffer.from(`plinth/data-key/${keyId}`);

export function newDataKey(): Buffer {
  return randomBytes(KEY_BYTES);
}

export function wrapDataKey(master: MasterKey, dataKey: Buffer): string {
  return `${master.id}.${b64(sealBytes(master.key, dataKey, wrapAad(master.id)))}`;
}

/** The id of the master key that wrapped a data key (or a sealed value's data key). */
export function wrappingKeyId(wrappedOrSealed: string): string {
  return wrappedOrSealed.slice(0, Math.max(0, wrappedOrSealed.indexOf('.')));
}

export function unwrapDataKey(ring: KeyRing, wrapped: string): Buffer {
  const [keyId, body, extra] = wrapped.split('.');
  if (!keyId || body === undefined || extra !== undefined) {
    throw new SecretError('malformed', 'not a wrapped data key');
  }
  const master = ring.find(keyId);
  if (!master) {
    throw new SecretError(
      'unknown-key',
      `a data key is wrapped by master key ${keyId}, which is not configured ` +
        '(ENCRYPTION_KEY, ENCRYPTION_KEY_FILE or ENCRYPTION_EXTRA_KEYS)',
    );
  }
  const dataKey = openBytes(master.key, fromB64(body), wrapAad(keyId), 'a wrapped data key');
  if (dataKey.length !== KEY_BYTES)
    throw new SecretError('malformed', 'a wrapped data key has the wrong length');
  return dataKey;
}

/** The same data key wrapped by the current master key; null when it already is. */
export function rewrap(ring: KeyRing, wrapped: string): string | null {
  if (wrappingKeyId(wrapped) === ring.current.id) return null;
  return wrapDataKey(ring.current, unwrapDataKey(ring, wrapped));
}

const valueAad = (context: string) => Buffer.from(`plinth/value/${context}`);

/** A small secret (a variable's value, a token) as one string, under a data key of its own. */
export function sealValue(ring: KeyRing, plaintext: Buffer, context: string): string {
  const dataKey = newDataKey();
  return `${wrapDataKey(ring.current, dataKey)}.${b64(sealBytes(dataKey, plaintext, valueAad(context)))}`;
}

/** Splits a sealed value into its wrapped data key and its ciphertext. */
function splitSealed(sealed: string): [string, string] {
  const last = sealed.lastIndexOf('.');
  const wrapped = sealed.slice(0, Math.max(0, last));
  if (last < 0 || wrapped.split('.').length !== 2) throw new SecretError('malformed', 'not a sealed value');
  return [wrapped, sealed.slice(last + 1)];
}

export function openValue(ring: KeyRing, sealed: string, context: string): Buffer {
  const [wrapped, body] = splitSealed(sealed);
  return openBytes(unwrapDataKey(ring, wrapped), fromB64(body), valueAad(context), 'a sealed value');
}

/** The sealed value with its data key re-wrapped by the current master key; null when it already is. */
export function rewrapSealed(ring: KeyRing, sealed: string): string | null {
  const [wrapped, body] = splitSealed(sealed);
  const next = rewrap(ring, wrapped);
  return next === null ? null : `${next}.${body}`;
}

/** Bytes an encrypted stream of `plaintextBytes` takes: the header and a tag per segment. */
export function encryptedSize(plaintextBytes: number): number {
  return HEADER_BYTES + plaintextBytes + TAG_BYTES * Math.max(1, Math.ceil(plaintextBytes / SEGMENT_BYTES));
}

function segmentNonce(index: number, last: boolean): Buffer {
  const nonce = Buffer.alloc(NONCE_BYTES);
  nonce.writeUIntBE(index, NONCE_BYTES - 7, 6);
  nonce[NONCE_BYTES - 1] = last ? 1 : 0;
  return nonce;
}

function streamAad(header: Buffer, context: string): Buffer {
  return Buffer.concat([header, Buffer.from(`plinth/stream/${context}`)]);
}

/** Encrypts a byte stream under `dataKey` (see the format above). */
export class EncryptingStream extends Transform {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private index = 0;
  private readonly header = Buffer.alloc(HEADER_BYTES);
  private readonly aad: Buffer;

  constructor(
    private readonly dataKey: Buffer,
    context: string,
  ) {
    super();
    MAGIC.copy(this.header);
    this.header.writeUInt32BE(SEGMENT_BYTES, MAGIC.length);
    this.aad = streamAad(this.header, context);
    this.push(this.header);
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    // A full segment is sealed only once more bytes follow it: the last one carries the last flag.
    while (this.pendingBytes > SEGMENT_BYTES) {
      const all = Buffer.concat(this.pending);
      this.seal(all.subarray(0, SEGMENT_BYTES), false);
      this.pending = [all.subarray(SEGMENT_BYTES)];
      this.pendingBytes = all.length - SEGMENT_BYTES;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    this.seal(Buffer.concat(this.pending), true);
    done();
  }

  private seal(plaintext: Buffer, last: boolean): void {
    const sealed = sealBytes(this.dataKey, plaintext, this.aad, segmentNonce(this.index++, last));
    this.push(sealed.subarray(NONCE_BYTES));
  }
}

/** Decrypts what EncryptingStream wrote; fails the stream on any change, cut or extension. */
export class DecryptingStream extends Transform {
  /** Bytes received and not yet opened, joined only once a segment can be cut from them. */
  private parts: Buffer[] = [];
  private bytes = 0;
  private header?: Buffer;
  private aad?: Buffer;
  private segment = 0;
  private index = 0;

  constructor(
    private readonly dataKey: Buffer,
    private readonly context: string,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.parts.push(chunk);
    this.bytes += chunk.length;
    try {
      if (!this.header) {
        if (this.bytes < HEADER_BYTES) return done();
        this.readHeader();
      }
      // The last segment is told by the end of the stream, so one full segment is always held back.
      const sealedSegment = this.segment + TAG_BYTES;
      if (this.bytes > sealedSegment) {
        const all = this.joined();
        let offset = 0;
        while (all.length - offset > sealedSegment) {
          this.push(this.open(all.subarray(offset, offset + sealedSegment), false));
          offset += sealedSegment;
        }
        this.hold(all.subarray(offset));
      }
      done();
    } catch (err) {
      done(err as Error);
    }
  }

  override _flush(done: TransformCallback): void {
    try {
      if (!this.header) throw new SecretError('malformed', 'an encrypted stream ends before its header');
      this.push(this.open(this.joined(), true));
      done();
    } catch (err) {
      done(err as Error);
    }
  }

  private joined(): Buffer {
    return this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts);
  }

  private hold(rest: Buffer): void {
    this.parts = rest.length ? [rest] : [];
    this.bytes = rest.length;
  }

  private readHeader(): void {
    const all = this.joined();
    if (!all.subarray(0, MAGIC.length).equals(MAGIC)) {
      throw new SecretError('malformed', 'not an encrypted stream');
    }
    this.segment = all.readUInt32BE(MAGIC.length);
    if (this.segment < 1 || this.segment > 16 * 1024 * 1024) {
      throw new SecretError('malformed', 'an encrypted stream has an impossible segment size');
    }
    this.header = Buffer.from(all.subarray(0, HEADER_BYTES));
    this.aad = streamAad(this.header, this.context);
    this.hold(all.subarray(HEADER_BYTES));
  }

  private open(sealed: Buffer, last: boolean): Buffer {
    return openWith(this.dataKey, segmentNonce(this.index++, last), sealed, this.aad!, 'an encrypted stream');
  }
}

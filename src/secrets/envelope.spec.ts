import { randomBytes } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DecryptingStream,
  EncryptingStream,
  encryptedSize,
  newDataKey,
  openValue,
  rewrap,
  rewrapSealed,
  SEGMENT_BYTES,
  sealValue,
  SecretError,
  unwrapDataKey,
  wrapDataKey,
  wrappingKeyId,
} from './envelope';
import { KeyRing } from './key-ring';

const oldKey = randomBytes(32);
const newKey = randomBytes(32);
const ring = KeyRing.of(oldKey);

async function collect(source: Buffer, transform: Transform): Promise<Buffer> {
  const out: Buffer[] = [];
  transform.on('data', (chunk: Buffer) => out.push(chunk));
  await pipeline(Readable.from(chunks(source)), transform);
  return Buffer.concat(out);
}

/** Uneven chunks, so that segment edges fall inside them. */
function* chunks(bytes: Buffer): Generator<Buffer> {
  let at = 0;
  let size = 1;
  while (at < bytes.length) {
    yield bytes.subarray(at, at + size);
    at += size;
    size = (size * 7 + 13) % 50_000 || 1;
  }
}

describe('envelope', () => {
  it('wraps a data key under the current master key, named by its id, and unwraps it', () => {
    const dataKey = newDataKey();
    const wrapped = wrapDataKey(ring.current, dataKey);
    expect(wrappingKeyId(wrapped)).toBe(ring.current.id);
    expect(ring.current.id).toMatch(/^k[0-9a-f]{16}$/);
    expect(wrapped).not.toContain(dataKey.toString('base64url'));
    expect(unwrapDataKey(ring, wrapped)).toEqual(dataKey);
  });

  it('refuses a data key wrapped by a master key it does not hold, naming the key id only', () => {
    const wrapped = wrapDataKey(KeyRing.of(newKey).current, newDataKey());
    expect(() => unwrapDataKey(ring, wrapped)).toThrow(
      new SecretError(
        'unknown-key',
        `a data key is wrapped by master key ${KeyRing.of(newKey).current.id}, which is not configured ` +
          '(ENCRYPTION_KEY, ENCRYPTION_KEY_FILE or ENCRYPTION_EXTRA_KEYS)',
      ),
    );
  });

  it('seals a value bound to its context: another context or a changed byte does not open', () => {
    const sealed = sealValue(ring, Buffer.from('hunter2'), 'vars/var-1');
    expect(sealed).not.toContain('hunter2');
    expect(openValue(ring, sealed, 'vars/var-1').toString()).toBe('hunter2');
    expect(() => openValue(ring, sealed, 'vars/var-2')).toThrow(SecretError);
    const body = sealed.slice(sealed.lastIndexOf('.') + 1);
    const flipped = `${body[0] === 'A' ? 'B' : 'A'}${body.slice(1)}`;
    expect(() =>
      openValue(ring, `${sealed.slice(0, sealed.lastIndexOf('.'))}.${flipped}`, 'vars/var-1'),
    ).toThrow(SecretError);
    expect(() => openValue(ring, 'nonsense', 'vars/var-1')).toThrow(
      new SecretError('malformed', 'not a sealed value'),
    );
  });

  it('gives each value a data key of its own', () => {
    const a = sealValue(ring, Buffer.from('same'), 'c');
    const b = sealValue(ring, Buffer.from('same'), 'c');
    expect(a.split('.')[1]).not.toBe(b.split('.')[1]);
    expect(a.split('.')[2]).not.toBe(b.split('.')[2]);
  });

  it('re-wraps under a new master key while both are configured, and leaves the ciphertext alone', () => {
    const sealed = sealValue(ring, Buffer.from('s3cret'), 'ctx');
    const rotating = KeyRing.of(newKey, [oldKey]);
    const next = rewrapSealed(rotating, sealed)!;
    expect(wrappingKeyId(next)).toBe(rotating.current.id);
    expect(next.split('.')[2]).toBe(sealed.split('.')[2]);
    expect(openValue(rotating, next, 'ctx').toString()).toBe('s3cret');
    expect(openValue(KeyRing.of(newKey), next, 'ctx').toString()).toBe('s3cret');
    expect(rewrapSealed(rotating, next)).toBeNull();
    const wrapped = wrapDataKey(ring.current, newDataKey());
    expect(unwrapDataKey(KeyRing.of(newKey), rewrap(rotating, wrapped)!)).toEqual(
      unwrapDataKey(ring, wrapped),
    );
  });

  describe('streams', () => {
    const sizes = [0, 1, SEGMENT_BYTES - 1, SEGMENT_BYTES, SEGMENT_BYTES + 1, 3 * SEGMENT_BYTES, 1_000_003];

    it.each(sizes)('round-trips %i bytes however the chunks fall', async (size) => {
      const key = newDataKey();
      const plaintext = randomBytes(size);
      const encrypted = await collect(plaintext, new EncryptingStream(key, 'blob/a'));
      const segments = Math.max(1, Math.ceil(size / SEGMENT_BYTES));
      expect(encrypted.length).toBe(8 + size + 16 * segments);
      expect(encryptedSize(size)).toBe(encrypted.length);
      expect(await collect(encrypted, new DecryptingStream(key, 'blob/a'))).toEqual(plaintext);
    });

    const encrypt = (size: number, key: Buffer) =>
      collect(randomBytes(size), new EncryptingStream(key, 'blob/a'));

    it('fails a stream cut at a segment edge, extended, changed, or read in another context', async () => {
      const key = newDataKey();
      const encrypted = await encrypt(3 * SEGMENT_BYTES + 10, key);
      const sealedSegment = SEGMENT_BYTES + 16;
      const cut = encrypted.subarray(0, 8 + 2 * sealedSegment);
      await expect(collect(cut, new DecryptingStream(key, 'blob/a'))).rejects.toThrow(SecretError);
      const extended = Buffer.concat([encrypted, encrypted.subarray(8, 8 + sealedSegment)]);
      await expect(collect(extended, new DecryptingStream(key, 'blob/a'))).rejects.toThrow(SecretError);
      const changed = Buffer.from(encrypted);
      changed[8 + sealedSegment + 5] ^= 1;
      await expect(collect(changed, new DecryptingStream(key, 'blob/a'))).rejects.toThrow(SecretError);
      await expect(collect(encrypted, new DecryptingStream(key, 'blob/b'))).rejects.toThrow(SecretError);
      await expect(collect(encrypted, new DecryptingStream(newDataKey(), 'blob/a'))).rejects.toThrow(
        SecretError,
      );
      await expect(collect(Buffer.alloc(0), new DecryptingStream(key, 'blob/a'))).rejects.toThrow(
        SecretError,
      );
    });
  });
});

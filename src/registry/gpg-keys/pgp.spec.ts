import * as openpgp from 'openpgp';
import { DomainError } from '../../common/errors/domain-error';
import { readDetachedSignature, readPublicKey, verifyDetached } from './pgp';

async function keyPair(name: string) {
  return openpgp.generateKey({
    type: 'ecc',
    curve: 'ed25519Legacy',
    userIDs: [{ name, email: `${name}@example.com` }],
    format: 'armored',
  });
}

async function sign(data: Uint8Array, privateArmor: string, armored: boolean): Promise<Uint8Array> {
  const signingKeys = await openpgp.readPrivateKey({ armoredKey: privateArmor });
  const message = await openpgp.createMessage({ binary: data });
  if (armored) {
    return Buffer.from(await openpgp.sign({ message, signingKeys, detached: true }));
  }
  return openpgp.sign({ message, signingKeys, detached: true, format: 'binary' });
}

describe('OpenPGP helpers', () => {
  let signer: Awaited<ReturnType<typeof keyPair>>;
  let stranger: Awaited<ReturnType<typeof keyPair>>;
  const sums = Buffer.from(`${'a'.repeat(64)}  terraform-provider-x_1.0.0_linux_amd64.zip\n`);

  beforeAll(async () => {
    [signer, stranger] = await Promise.all([keyPair('signer'), keyPair('stranger')]);
  });

  it('reads the key id of a public key as 16 upper-case hex digits', async () => {
    const expected = (await openpgp.readKey({ armoredKey: signer.publicKey }))
      .getKeyID()
      .toHex()
      .toUpperCase();
    await expect(readPublicKey(signer.publicKey)).resolves.toEqual({ keyId: expected });
    expect(expected).toMatch(/^[0-9A-F]{16}$/);
  });

  it.each([
    ['garbage', 'not a key', 'Ascii armor is not a valid ASCII-armored OpenPGP public key'],
    [
      'a truncated key',
      '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQINBF\n-----END PGP PUBLIC KEY BLOCK-----\n',
      'Ascii armor is not a valid ASCII-armored OpenPGP public key',
    ],
  ])('refuses %s as a key', async (_, armor, detail) => {
    await expect(readPublicKey(armor)).rejects.toMatchObject({
      kind: 'invalid',
      items: [{ detail, pointer: '/data/attributes/ascii-armor' }],
    });
  });

  it('refuses a private key', async () => {
    await expect(readPublicKey(signer.privateKey)).rejects.toMatchObject({
      items: [{ detail: 'Ascii armor must be a public key, not a private key' }],
    });
  });

  it.each([
    ['binary', false],
    ['armored', true],
  ])('verifies a good %s detached signature', async (_, armored) => {
    const signature = await sign(sums, signer.privateKey, armored);
    await expect(readDetachedSignature(signature)).resolves.toBeDefined();
    await expect(verifyDetached(sums, signature, signer.publicKey)).resolves.toBe(true);
  });

  it('rejects a signature over other bytes', async () => {
    const signature = await sign(Buffer.from('something else'), signer.privateKey, false);
    await expect(verifyDetached(sums, signature, signer.publicKey)).resolves.toBe(false);
  });

  it('rejects a signature made by another key', async () => {
    const signature = await sign(sums, stranger.privateKey, false);
    await expect(verifyDetached(sums, signature, signer.publicKey)).resolves.toBe(false);
  });

  it('refuses bytes that are not a signature', async () => {
    await expect(readDetachedSignature(Buffer.from('not a signature'))).rejects.toBeInstanceOf(DomainError);
    await expect(verifyDetached(sums, Buffer.from('nope'), signer.publicKey)).resolves.toBe(false);
  });
});

import type * as OpenPgp from 'openpgp';
import { invalid } from '../../common/errors/domain-error';

/**
 * openpgp (about 400 KB) is loaded the first time a key or signature is read, not with the app:
 * most processes never verify one.
 */
let loading: Promise<typeof OpenPgp> | undefined;
function pgp(): Promise<typeof OpenPgp> {
  return (loading ??= import('openpgp'));
}

/** Registry keys in the wild include DSA ones; openpgp refuses those by default when verifying. */
const CONFIG = { rejectPublicKeyAlgorithms: new Set<OpenPgp.enums.publicKey>() };

const ARMOR_POINTER = '/data/attributes/ascii-armor';

export interface PublicKeyInfo {
  /** 16 upper-case hex digits (the primary key's 64-bit key id). */
  keyId: string;
}

/** Reads an ASCII-armored OpenPGP public key; anything else (including a private key) is a 422. */
export async function readPublicKey(asciiArmor: string): Promise<PublicKeyInfo> {
  const openpgp = await pgp();
  let key: OpenPgp.Key;
  try {
    key = await openpgp.readKey({ armoredKey: asciiArmor, config: CONFIG });
  } catch {
    throw invalid('Ascii armor is not a valid ASCII-armored OpenPGP public key', ARMOR_POINTER);
  }
  if (key.isPrivate()) {
    throw invalid('Ascii armor must be a public key, not a private key', ARMOR_POINTER);
  }
  return { keyId: key.getKeyID().toHex().toUpperCase() };
}

/** Reads a detached signature, binary (`gpg --detach-sign`) or armored (`--armor`); else 422. */
export async function readDetachedSignature(bytes: Uint8Array): Promise<OpenPgp.Signature> {
  const openpgp = await pgp();
  const text = Buffer.from(bytes).toString('latin1');
  try {
    if (text.trimStart().startsWith('-----BEGIN PGP SIGNATURE-----')) {
      return await openpgp.readSignature({ armoredSignature: text, config: CONFIG });
    }
    return await openpgp.readSignature({ binarySignature: bytes, config: CONFIG });
  } catch {
    throw invalid('The signature is not an OpenPGP detached signature');
  }
}

/** Whether `signature` is a valid signature of `data` by the armored public key. */
export async function verifyDetached(
  data: Uint8Array,
  signature: Uint8Array,
  asciiArmor: string,
): Promise<boolean> {
  const openpgp = await pgp();
  try {
    const [key, sig, message] = await Promise.all([
      openpgp.readKey({ armoredKey: asciiArmor, config: CONFIG }),
      readDetachedSignature(signature),
      openpgp.createMessage({ binary: data }),
    ]);
    await openpgp.verify({
      message,
      signature: sig,
      verificationKeys: key,
      expectSigned: true,
      format: 'binary',
      config: CONFIG,
    });
    return true;
  } catch {
    return false;
  }
}

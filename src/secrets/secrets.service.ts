import { Injectable } from '@nestjs/common';
import { Transform } from 'node:stream';
import {
  DecryptingStream,
  EncryptingStream,
  encryptedSize,
  newDataKey,
  openValue,
  rewrap,
  rewrapSealed,
  sealValue,
  unwrapDataKey,
  wrapDataKey,
  wrappingKeyId,
} from './envelope';
import { KeyRing } from './key-ring';

/** An encryption in progress: pipe the plaintext through `stream`, keep `wrappedKey` with the object. */
export interface Encryption {
  wrappedKey: string;
  stream: Transform;
}

/**
 * The one way Plinth encrypts what it keeps: state files, output values, sensitive variables and
 * notification tokens. Envelope encryption under the operator's master key (see envelope.ts);
 * nothing else in the code encrypts or decrypts, and nothing here logs a key or a plaintext.
 *
 * `context` names what is encrypted and where it lives (a blob key, `state-version-outputs/<id>`):
 * the same context must be given to decrypt.
 */
@Injectable()
export class Secrets {
  constructor(private readonly ring: KeyRing) {}

  /** The id of the master key new data keys are wrapped with. */
  get currentKeyId(): string {
    return this.ring.current.id;
  }

  /** A small secret as one storable string, under a data key of its own. */
  seal(plaintext: Buffer | string, context: string): string {
    return sealValue(this.ring, Buffer.from(plaintext), context);
  }

  open(sealed: string, context: string): Buffer {
    return openValue(this.ring, sealed, context);
  }

  /** Encrypts a stream under a new data key; store the wrapped key beside the object. */
  encrypting(context: string): Encryption {
    const dataKey = newDataKey();
    return {
      wrappedKey: wrapDataKey(this.ring.current, dataKey),
      stream: new EncryptingStream(dataKey, context),
    };
  }

  /** The bytes `encrypting` writes for a stream of `plaintextBytes`. */
  encryptedSize(plaintextBytes: number): number {
    return encryptedSize(plaintextBytes);
  }

  /** Decrypts what `encrypting` wrote, given the object's wrapped key. */
  decrypting(wrappedKey: string, context: string): Transform {
    return new DecryptingStream(unwrapDataKey(this.ring, wrappedKey), context);
  }

  /**
   * A wrapped data key, or a sealed value, with its data key wrapped by the current master key:
   * null when it already is. The data key (and so the encrypted bytes) stays the same.
   */
  rewrap(wrappedOrSealed: string): string | null {
    return wrappedOrSealed.split('.').length === 3
      ? rewrapSealed(this.ring, wrappedOrSealed)
      : rewrap(this.ring, wrappedOrSealed);
  }

  /** The master key id a wrapped key or sealed value was wrapped with. */
  keyIdOf(wrappedOrSealed: string): string {
    return wrappingKeyId(wrappedOrSealed);
  }

  /** Whether this process holds the master key of that id. */
  knows(keyId: string): boolean {
    return this.ring.find(keyId) !== undefined;
  }
}

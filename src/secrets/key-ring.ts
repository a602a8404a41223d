import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../common/private-files';
import { AppConfig, ConfigError, masterKey } from '../config/app-config';

/** A master key and the id stored beside every data key it wraps. */
export interface MasterKey {
  id: string;
  key: Buffer;
}

/**
 * The id of a master key: derived from the key (an HMAC under it, so it tells nothing about the
 * key), so the operator never names keys and every node derives the same id from the same key.
 */
export function masterKeyId(key: Buffer): string {
  return `k${createHmac('sha256', key).update('plinth master key id').digest('hex').slice(0, 16)}`;
}

function masterKeyOf(key: Buffer): MasterKey {
  return { id: masterKeyId(key), key };
}

/**
 * The master keys of this process: the current one wraps every new data key; the others only
 * unwrap, so that data keys wrapped before a rotation stay readable until they are re-wrapped.
 */
export class KeyRing {
  private readonly byId = new Map<string, MasterKey>();

  constructor(
    readonly current: MasterKey,
    others: MasterKey[] = [],
  ) {
    for (const key of [current, ...others]) this.byId.set(key.id, key);
  }

  static of(current: Buffer, others: Buffer[] = []): KeyRing {
    return new KeyRing(masterKeyOf(current), others.map(masterKeyOf));
  }

  find(id: string): MasterKey | undefined {
    return this.byId.get(id);
  }

  /** Ids of every key this process can unwrap with, the current one first. */
  ids(): string[] {
    return [...this.byId.keys()];
  }
}

/**
 * ENCRYPTION_KEY, else the file ENCRYPTION_KEY_FILE names, else a key generated on first start
 * into DATA_DIR (as the signing secret is) and read from there afterwards.
 */
export function loadKeyRing(config: AppConfig): KeyRing {
  const current =
    config.encryptionKey ??
    (config.encryptionKeyFile
      ? readKeyFile(config.encryptionKeyFile, 'ENCRYPTION_KEY_FILE')
      : persistedKey(config.dataDir));
  return KeyRing.of(current, config.encryptionExtraKeys);
}

function readKeyFile(file: string, source: string): Buffer {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`${source}: cannot read ${file} (${(err as NodeJS.ErrnoException).code})`);
  }
  return masterKey(text, `the key in ${file}`);
}

function persistedKey(dataDir: string): Buffer {
  const file = join(dataDir, 'encryption-key');
  if (!existsSync(file)) {
    ensurePrivateDir(dataDir);
    try {
      writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    } catch (err) {
      // Another worker process wrote it first; theirs is the one to keep.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return readKeyFile(file, 'the generated encryption key');
}

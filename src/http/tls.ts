import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Server as HttpsServer } from 'node:https';
import { createSecureContext } from 'node:tls';
import type { Logger } from 'pino';
import { ConfigError } from '../config/app-config';
import type { TlsFiles } from '../config/tls-settings';

/** The certificate chain and key, as read from their files and checked to belong together. */
export interface TlsMaterial {
  cert: Buffer;
  key: Buffer;
}

function read(variable: string, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConfigError(`${variable} names a file that cannot be read (${code}): ${file}`);
  }
}

/**
 * Reads TLS_CERT_FILE and TLS_KEY_FILE and checks them as a TLS server would use them: a PEM
 * certificate, a PEM private key, and the key the certificate's. Every failure names the variable.
 */
export function readTlsFiles(files: TlsFiles): TlsMaterial {
  const cert = read('TLS_CERT_FILE', files.certFile);
  const key = read('TLS_KEY_FILE', files.keyFile);
  try {
    new X509Certificate(cert);
  } catch {
    throw new ConfigError(`TLS_CERT_FILE does not hold a PEM certificate: ${files.certFile}`);
  }
  try {
    createPrivateKey(key);
  } catch {
    throw new ConfigError(`TLS_KEY_FILE does not hold an unencrypted PEM private key: ${files.keyFile}`);
  }
  try {
    createSecureContext({ cert, key });
  } catch {
    throw new ConfigError('TLS_KEY_FILE is not the private key of the certificate in TLS_CERT_FILE');
  }
  return { cert, key };
}

/**
 * Reads the files again and makes new connections use them; connections already open keep the
 * context they were made with. A bad file leaves the server on its current certificate.
 */
export function reloadTls(server: HttpsServer, files: TlsFiles, log: Logger): boolean {
  let material: TlsMaterial;
  try {
    material = readTlsFiles(files);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    log.warn(`TLS certificate not reloaded, the current one stays in use: ${reason}`);
    return false;
  }
  server.setSecureContext(material);
  const { subject, validTo } = new X509Certificate(material.cert);
  log.info(`TLS certificate reloaded (${subject.replace(/\n/g, ', ')}, valid to ${validTo})`);
  return true;
}

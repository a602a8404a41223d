import { isAbsolute, resolve } from 'node:path';

type Env = Record<string, string | undefined>;

/** Where the certificate chain and private key Plinth serves HTTPS with are kept (PEM files). */
export interface TlsFiles {
  certFile: string;
  keyFile: string;
}

/** A TLS setting that cannot work; AppConfig turns it into a ConfigError. */
export class TlsSettingError extends Error {}

/** TLS_CERT_FILE and TLS_KEY_FILE: both (HTTPS) or neither (plain HTTP, TLS ends at a proxy). */
export function tlsSettings(env: Env): TlsFiles | undefined {
  const cert = env.TLS_CERT_FILE?.trim() || undefined;
  const key = env.TLS_KEY_FILE?.trim() || undefined;
  if (!cert && !key) return undefined;
  if (!cert) throw new TlsSettingError('TLS_CERT_FILE is required when TLS_KEY_FILE is set');
  if (!key) throw new TlsSettingError('TLS_KEY_FILE is required when TLS_CERT_FILE is set');
  const path = (p: string) => (isAbsolute(p) ? p : resolve(process.cwd(), p));
  return { certFile: path(cert), keyFile: path(key) };
}

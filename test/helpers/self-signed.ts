import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A self-signed certificate for 127.0.0.1 and localhost, made with the machine's openssl. */
export interface SelfSigned {
  certFile: string;
  keyFile: string;
  cert: string;
}

/** Writes `NAME.crt` and `NAME.key` into `dir`: an EC P-256 key (fast to make), valid one day. */
export function selfSigned(dir: string, name: string): SelfSigned {
  const certFile = join(dir, `${name}.crt`);
  const keyFile = join(dir, `${name}.key`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      `/CN=${name}`,
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
  return { certFile, keyFile, cert: readFileSync(certFile, 'utf8') };
}

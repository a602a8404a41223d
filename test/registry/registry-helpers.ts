import { createHash } from 'node:crypto';
import * as openpgp from 'openpgp';
import request from 'supertest';
import { Actor } from '../helpers/fixtures';

export interface SigningKey {
  publicKey: string;
  privateKey: string;
  /** 16 upper-case hex digits. */
  keyId: string;
}

/** A real OpenPGP key pair (Ed25519: quick to make, verified like any other). */
export async function generateSigningKey(name = 'publisher'): Promise<SigningKey> {
  const { publicKey, privateKey } = await openpgp.generateKey({
    type: 'ecc',
    curve: 'ed25519Legacy',
    userIDs: [{ name, email: `${name}@example.com` }],
    format: 'armored',
  });
  const key = await openpgp.readKey({ armoredKey: publicKey });
  return { publicKey, privateKey, keyId: key.getKeyID().toHex().toUpperCase() };
}

/** A detached signature as `gpg --detach-sign` (binary) or `--armor --detach-sign` makes it. */
export async function signDetached(data: Buffer, key: SigningKey, armored = false): Promise<Buffer> {
  const signingKeys = await openpgp.readPrivateKey({ armoredKey: key.privateKey });
  const message = await openpgp.createMessage({ binary: data });
  if (armored) return Buffer.from(await openpgp.sign({ message, signingKeys, detached: true }));
  return Buffer.from(await openpgp.sign({ message, signingKeys, detached: true, format: 'binary' }));
}

export const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/** A SHA256SUMS document in `sha256sum` output format. */
export function shasumsOf(files: Record<string, Buffer>): Buffer {
  return Buffer.from(
    Object.entries(files)
      .map(([name, bytes]) => `${sha256(bytes)}  ${name}\n`)
      .join(''),
  );
}

/** A stand-in provider archive: unique bytes per call. */
export function fakeZip(label: string): Buffer {
  return Buffer.concat([
    Buffer.from('PK\u0003\u0004'),
    Buffer.from(`${label}:${Math.random()}`),
    Buffer.alloc(2048, 7),
  ]);
}

/** PUTs raw bytes to an absolute signed link, with no Authorization header, as `curl -T` does. */
export function put(link: string, body: Buffer): request.Test {
  const url = new URL(link);
  return request(url.origin).put(url.pathname).set('Content-Type', 'application/octet-stream').send(body);
}

/** GET (body collected as raw bytes) or HEAD on an absolute signed link, without a token. */
export function fetchLink(link: string, method: 'get' | 'head' = 'get'): request.Test {
  const url = new URL(link);
  if (method === 'head') return request(url.origin).head(url.pathname);
  return request(url.origin)
    .get(url.pathname)
    .buffer(true)
    .parse((res, done) => {
      const stream = res as unknown as NodeJS.ReadableStream;
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => done(null, Buffer.concat(chunks)));
      stream.on('error', (err: Error) => done(err, undefined));
    });
}

export function providerBase(org: string, name: string, registry = 'private', namespace = org): string {
  return `/api/v2/organizations/${org}/registry-providers/${registry}/${namespace}/${name}`;
}

export async function createProvider(
  actor: Actor,
  org: string,
  name: string,
  registryName: 'private' | 'public' = 'private',
  namespace = org,
): Promise<string> {
  const res = await actor.api
    .post(`/api/v2/organizations/${org}/registry-providers`, {
      data: {
        type: 'registry-providers',
        attributes: { name, namespace, 'registry-name': registryName },
      },
    })
    .expect(201);
  return res.body.data.id as string;
}

export async function createKey(actor: Actor, namespace: string, key: SigningKey): Promise<void> {
  await actor.api
    .post('/api/registry/private/v2/gpg-keys', {
      data: { type: 'gpg-keys', attributes: { namespace, 'ascii-armor': key.publicKey } },
    })
    .expect(201);
}

export interface CreatedVersion {
  id: string;
  links: Record<string, string>;
}

export async function createVersion(
  actor: Actor,
  base: string,
  version: string,
  keyId: string,
  protocols: string[] = ['5.0'],
): Promise<CreatedVersion> {
  const res = await actor.api
    .post(`${base}/versions`, {
      data: {
        type: 'registry-provider-versions',
        attributes: { version, 'key-id': keyId, protocols },
      },
    })
    .expect(201);
  return { id: res.body.data.id, links: res.body.data.links };
}

export async function createPlatform(
  actor: Actor,
  base: string,
  version: string,
  attrs: { os: string; arch: string; shasum: string; filename: string },
): Promise<{ id: string; links: Record<string, string> }> {
  const res = await actor.api
    .post(`${base}/versions/${version}/platforms`, {
      data: { type: 'registry-provider-platforms', attributes: attrs },
    })
    .expect(201);
  return { id: res.body.data.id, links: res.body.data.links };
}

export interface Release {
  version: string;
  binary: Buffer;
  filename: string;
  sums: Buffer;
  signature: Buffer;
  versionId: string;
  platformId: string;
}

/**
 * Builds a release of `name` the way a publisher would: SHA256SUMS over the binary, a detached
 * signature, the version, one linux/amd64 platform. `steps` says which uploads to perform.
 */
export async function publish(
  actor: Actor,
  base: string,
  name: string,
  version: string,
  key: SigningKey,
  steps: { sums?: boolean; signature?: boolean; binary?: boolean; signWith?: SigningKey } = {},
): Promise<Release> {
  const filename = `terraform-provider-${name}_${version}_linux_amd64.zip`;
  const binary = fakeZip(`${name}-${version}`);
  const sums = shasumsOf({ [filename]: binary });
  const signature = await signDetached(sums, steps.signWith ?? key);
  const created = await createVersion(actor, base, version, key.keyId, ['5.0', '6.0']);
  if (steps.sums !== false) await put(created.links['shasums-upload'], sums).expect(200);
  if (steps.signature !== false) await put(created.links['shasums-sig-upload'], signature).expect(200);
  const platform = await createPlatform(actor, base, version, {
    os: 'linux',
    arch: 'amd64',
    shasum: sha256(binary),
    filename,
  });
  if (steps.binary !== false) await put(platform.links['provider-binary-upload'], binary).expect(200);
  return { version, binary, filename, sums, signature, versionId: created.id, platformId: platform.id };
}

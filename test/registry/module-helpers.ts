import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import * as tar from 'tar';
import { Actor, unique } from '../helpers/fixtures';
import { tarGz, TarEntry } from '../helpers/tarball';
import { TestApp } from '../helpers/test-app';

/** A provider name the module rules accept (lower-case letters and numbers), unique in the run. */
export const moduleProvider = (base = 'aws') => unique(base).replace(/[^a-z0-9]/g, '');

export const modulesPath = (org: string) => `/api/v2/organizations/${org}/registry-modules`;

export function moduleBase(
  org: string,
  name: string,
  provider: string,
  registry = 'private',
  namespace = org,
) {
  return `${modulesPath(org)}/${registry}/${namespace}/${name}/${provider}`;
}

/** A small module as a publisher packs it: `tar -czf module.tar.gz -C module .`. */
export const MODULE_FILES: Record<string, string> = {
  'main.tf': 'resource "null_resource" "this" {}\n',
  'variables.tf': 'variable "name" {\n  type = string\n}\n',
  'outputs.tf.json': '{"output":{"id":{"value":"${null_resource.this.id}"}}}\n',
  'README.md': '# example\n',
  'modules/child/main.tf': 'output "x" { value = 1 }\n',
};

export function moduleArchive(files: Record<string, string> = MODULE_FILES): Buffer {
  const entries: TarEntry[] = [{ path: './', type: 'Directory' }];
  const dirs = new Set<string>();
  for (const path of Object.keys(files)) {
    const parts = path.split('/').slice(0, -1);
    parts.forEach((_, i) => dirs.add(`./${parts.slice(0, i + 1).join('/')}/`));
  }
  for (const dir of [...dirs].sort()) entries.push({ path: dir, type: 'Directory' });
  for (const [path, body] of Object.entries(files)) entries.push({ path: `./${path}`, body });
  return tarGz(entries);
}

/** Unpacks a tar.gz the way the tool's getter does and reads every regular file back. */
export async function unpack(archive: Buffer): Promise<Record<string, string>> {
  const dir = mkdtempSync(join(tmpdir(), 'plinth-module-'));
  try {
    await new Promise<void>((resolve, reject) => {
      const extract = tar.x({ cwd: dir, strict: true });
      extract.on('error', reject);
      extract.on('finish', () => resolve());
      extract.end(archive);
    });
    const files: Record<string, string> = {};
    const walk = (at: string) => {
      for (const name of readdirSync(at)) {
        const full = join(at, name);
        if (statSync(full).isDirectory()) walk(full);
        else files[relative(dir, full)] = readFileSync(full, 'utf8');
      }
    };
    walk(dir);
    return files;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function createModule(
  actor: Actor,
  org: string,
  name: string,
  provider: string,
): Promise<string> {
  const res = await actor.api
    .post(modulesPath(org), {
      data: {
        type: 'registry-modules',
        attributes: { name, provider, namespace: org, 'registry-name': 'private' },
      },
    })
    .expect(201);
  return res.body.data.id as string;
}

export async function createModuleVersion(
  actor: Actor,
  base: string,
  version: string,
): Promise<{ id: string; upload: string }> {
  const res = await actor.api
    .post(`${base}/versions`, { data: { type: 'registry-module-versions', attributes: { version } } })
    .expect(201);
  return { id: res.body.data.id as string, upload: res.body.data.links.upload as string };
}

/** Where the blob store keeps a module's (or one version's) files in a test app. */
export function moduleBlobDir(t: TestApp, moduleId: string, versionId?: string): string {
  return join(t.config.dataDir, 'blobs', 'registry', moduleId, ...(versionId ? [versionId] : []));
}

export const blobsExist = (dir: string) => existsSync(dir) && readdirSync(dir).length > 0;

import { gzipSync } from 'node:zlib';
import { Header } from 'tar';
import { Api, inParallel, putBytes } from './http';

/** Providers every seeded module name is published for. */
const MODULE_PROVIDERS = ['aws', 'azurerm', 'google'];
const PARALLEL = 16;

export interface SeededModule {
  moduleName: string;
  moduleProvider: string;
  moduleVersion: string;
}

/**
 * Modules published by upload, as a CI job would: each name for three providers, each with
 * `versions` versions whose archive passed inspection (`ok`), so the consumer list is full.
 */
export async function seedModules(
  api: Api,
  org: string,
  names: number,
  versions: number,
): Promise<SeededModule> {
  const modules = Array.from({ length: names }, (_, i) => `module-${String(i).padStart(3, '0')}`).flatMap(
    (name) => MODULE_PROVIDERS.map((provider) => ({ name, provider })),
  );
  const base = ({ name, provider }: { name: string; provider: string }) =>
    `/api/v2/organizations/${org}/registry-modules/private/${org}/${name}/${provider}`;
  await inParallel(modules, PARALLEL, ({ name, provider }) =>
    api.post(`/api/v2/organizations/${org}/registry-modules`, {
      data: { type: 'registry-modules', attributes: { name, provider, 'registry-name': 'private' } },
    }),
  );
  const archive = moduleArchive();
  const releases = modules.flatMap((m) =>
    Array.from({ length: versions }, (_, j) => ({ m, version: `1.${j}.0` })),
  );
  // Below the organization's cap on archive inspections under way (8), which answers 429 past it.
  await inParallel(releases, Math.min(PARALLEL, 4), async ({ m, version }) => {
    const created = await api.post<{ data: { links: { upload: string } } }>(`${base(m)}/versions`, {
      data: { type: 'registry-module-versions', attributes: { version } },
    });
    await putBytes(created.data.links.upload, archive);
  });
  return {
    moduleName: modules[0].name,
    moduleProvider: modules[0].provider,
    moduleVersion: `1.${versions - 1}.0`,
  };
}

/** A small module at the archive root: three configuration files and a README. */
function moduleArchive(): Buffer {
  const files: [string, string][] = [
    ['main.tf', 'resource "null_resource" "this" {\n  triggers = { name = var.name }\n}\n'],
    ['variables.tf', 'variable "name" {\n  type = string\n}\n'],
    ['outputs.tf', 'output "id" {\n  value = null_resource.this.id\n}\n'],
    ['README.md', '# bench module\n'],
  ];
  const blocks: Buffer[] = [];
  for (const [path, text] of files) {
    const body = Buffer.from(text);
    const header = new Header({ path, type: 'File', size: body.length, mode: 0o644, mtime: new Date(0) });
    const block = Buffer.alloc(512);
    header.encode(block, 0);
    blocks.push(block, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

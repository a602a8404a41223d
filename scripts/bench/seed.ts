import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import * as openpgp from 'openpgp';
import { Header } from 'tar';
import { Api, inParallel, putBytes } from './http';
import { SeededModule, seedModules } from './seed-modules';
import { SeededState, seedState } from './seed-state';

/** How big the seeded organization is; BENCH_SCALE multiplies every count. */
export interface SeedSize {
  workspaces: number;
  projects: number;
  policySets: number;
  policies: number;
  providers: number;
  versionsPerProvider: number;
  /** Module names, each published for three providers. */
  modules: number;
  versionsPerModule: number;
  runTriggers: number;
  reservedTagKeys: number;
}

export function seedSize(scale: number): SeedSize {
  const n = (full: number, min: number) => Math.max(min, Math.round(full * scale));
  return {
    workspaces: n(10_000, 100),
    projects: n(50, 5),
    policySets: n(500, 20),
    policies: n(1_000, 20),
    providers: n(200, 2),
    versionsPerProvider: 10,
    modules: n(100, 2),
    versionsPerModule: 10,
    runTriggers: n(2_000, 20),
    reservedTagKeys: n(200, 4),
  };
}

/** What the scenarios need to know about the seeded organization. */
export interface Seeded extends SeededModule, SeededState {
  org: string;
  workspaceIds: string[];
  /** A set with a ready version and a newer pending one, so both version includes differ. */
  versionedSetId: string;
  /** Non-global sets for the relationship scenario, each with a workspace it does not hold. */
  attachableSetIds: string[];
  /** A workspace with global, project and workspace-attached sets applying to it. */
  effectiveWorkspaceId: string;
  /** A destination with 20 sources. */
  inboundWorkspaceId: string;
  providerName: string;
  providerVersion: string;
}

const PLATFORMS: [string, string][] = [
  ['linux', 'amd64'],
  ['linux', 'arm64'],
  ['darwin', 'amd64'],
  ['darwin', 'arm64'],
  ['windows', 'amd64'],
  ['freebsd', 'amd64'],
];
const SOURCES_PER_DESTINATION = 20;
const PARALLEL = 16;

const pad = (i: number, width = 5) => String(i).padStart(width, '0');
const ids = (type: string, values: string[]) => ({ data: values.map((id) => ({ id, type })) });
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

type Log = (line: string) => void;

/** Seeds the organization through the public API, as a client would, with parallel requests. */
export class Seeder {
  constructor(
    private readonly api: Api,
    private readonly size: SeedSize,
    private readonly log: Log,
  ) {}

  async run(org: string): Promise<Seeded> {
    const t0 = Date.now();
    const step = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
      const started = Date.now();
      const out = await work();
      this.log(`  ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      return out;
    };
    await this.api.post('/api/v2/organizations', {
      data: { type: 'organizations', attributes: { name: org, email: `ops@${org}.example` } },
    });
    const projectIds = await step(`${this.size.projects} projects`, () => this.projects(org));
    const workspaceIds = await step(`${this.size.workspaces} workspaces`, () =>
      this.workspaces(org, projectIds),
    );
    const policyIds = await step(`${this.size.policies} policies`, () => this.policies(org));
    const sets = await step(`${this.size.policySets} policy sets`, () =>
      this.policySets(org, projectIds, workspaceIds, policyIds),
    );
    const inbound = await step(`${this.size.runTriggers} run triggers`, () => this.runTriggers(workspaceIds));
    await step(`${this.size.reservedTagKeys} reserved tag keys`, () => this.reservedTagKeys(org));
    const provider = await step(
      `${this.size.providers} providers × ${this.size.versionsPerProvider} versions × ${PLATFORMS.length} platforms`,
      () => this.providers(org),
    );
    const module = await step(
      `${this.size.modules} modules × 3 providers × ${this.size.versionsPerModule} versions`,
      () => seedModules(this.api, org, this.size.modules, this.size.versionsPerModule),
    );
    const state = await step('a 1 MB state', () =>
      seedState(this.api, workspaceIds[2 % workspaceIds.length]),
    );
    this.log(`  seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    return {
      org,
      workspaceIds,
      ...sets,
      inboundWorkspaceId: inbound,
      providerName: provider.name,
      providerVersion: provider.version,
      ...module,
      ...state,
    };
  }

  private async projects(org: string): Promise<string[]> {
    const names = Array.from({ length: this.size.projects }, (_, i) => `project-${pad(i, 3)}`);
    return inParallel(names, PARALLEL, async (name) => {
      const res = await this.api.post<{ data: { id: string } }>(`/api/v2/organizations/${org}/projects`, {
        data: { type: 'projects', attributes: { name } },
      });
      return res.data.id;
    });
  }

  private async workspaces(org: string, projectIds: string[]): Promise<string[]> {
    const indexes = Array.from({ length: this.size.workspaces }, (_, i) => i);
    return inParallel(indexes, PARALLEL, async (i) => {
      const res = await this.api.post<{ data: { id: string } }>(`/api/v2/organizations/${org}/workspaces`, {
        data: {
          type: 'workspaces',
          attributes: { name: `ws-${pad(i)}`, description: `Workspace ${i} of the benchmark` },
          relationships: { project: { data: { type: 'projects', id: projectIds[i % projectIds.length] } } },
        },
      });
      return res.data.id;
    });
  }

  private async policies(org: string): Promise<string[]> {
    const indexes = Array.from({ length: this.size.policies }, (_, i) => i);
    return inParallel(indexes, PARALLEL, async (i) => {
      const res = await this.api.post<{ data: { id: string } }>(`/api/v2/organizations/${org}/policies`, {
        data: {
          type: 'policies',
          attributes: {
            name: `policy-${pad(i)}`,
            description: `Policy ${i}`,
            kind: 'framework_a',
            'enforcement-level': ['advisory', 'soft-mandatory', 'hard-mandatory'][i % 3],
          },
        },
      });
      return res.data.id;
    });
  }

  /**
   * Set i: the first half carry 20 policies each; the rest are VCS sets (i % 5 = 1), upload-versioned
   * sets with a ready and a newer pending version (i % 5 = 0) or empty. Attachment by i % 10:
   * 0 global with two exclusions, 1–3 one or two projects with an exclusion, 4–9 one to four workspaces.
   */
  private async policySets(
    org: string,
    projectIds: string[],
    workspaceIds: string[],
    policyIds: string[],
  ): Promise<Pick<Seeded, 'versionedSetId' | 'attachableSetIds' | 'effectiveWorkspaceId'>> {
    const n = this.size.policySets;
    const withPolicies = Math.floor(n / 2);
    const effective = workspaceIds[1];
    const effectiveProject = projectIds[1 % projectIds.length];
    const ws = (k: number) => workspaceIds[k % workspaceIds.length];
    const plan = Array.from({ length: n }, (_, i) => {
      const relationships: Record<string, unknown> = {};
      const attributes: Record<string, unknown> = {
        name: `set-${pad(i, 4)}`,
        description: `Policy set ${i}`,
        kind: 'framework_a',
      };
      const mode = i % 10;
      if (mode === 0) {
        attributes.global = true;
        relationships['workspace-exclusions'] = ids('workspaces', [ws(i * 7 + 3), ws(i * 7 + 4)]);
      } else if (mode <= 3) {
        const first = i % 3 === 0 ? effectiveProject : projectIds[i % projectIds.length];
        const projects = [first, ...(i % 2 ? [projectIds[(i + 1) % projectIds.length]] : [])];
        relationships.projects = ids('projects', [...new Set(projects)]);
        relationships['workspace-exclusions'] = ids('workspaces', [ws(i * 13 + 5)]);
      } else {
        const count = 1 + (i % 4);
        const members = Array.from({ length: count }, (_, k) => ws(i * 11 + k * 101 + 7));
        if (i % 7 === 0) members[0] = effective;
        relationships.workspaces = ids('workspaces', [...new Set(members)]);
      }
      const kind = i < withPolicies ? 'policies' : i % 5 === 1 ? 'vcs' : i % 5 === 0 ? 'uploads' : 'empty';
      if (kind === 'policies') {
        const start = (i * 20) % policyIds.length;
        const chosen = Array.from({ length: 20 }, (_, k) => policyIds[(start + k) % policyIds.length]);
        relationships.policies = ids('policies', [...new Set(chosen)]);
      }
      if (kind === 'vcs') {
        attributes['vcs-repo'] = {
          identifier: `acme/policies-${i}`,
          branch: 'main',
          'oauth-token-id': `ot-bench${pad(i, 4)}`,
        };
        attributes['policies-path'] = 'policies';
      }
      return { attributes, relationships, kind, global: mode === 0 };
    });
    const created = await inParallel(plan, PARALLEL, async (p) => {
      const res = await this.api.post<{ data: { id: string } }>(`/api/v2/organizations/${org}/policy-sets`, {
        data: { type: 'policy-sets', attributes: p.attributes, relationships: p.relationships },
      });
      return res.data.id;
    });
    const archive = policyArchive();
    const versioned = created.filter((_, i) => plan[i].kind === 'uploads');
    await inParallel(versioned, PARALLEL, async (setId) => {
      const first = await this.api.post<{ data: { links: { upload: string } } }>(
        `/api/v2/policy-sets/${setId}/versions`,
      );
      await putBytes(first.data.links.upload, archive);
      await this.api.post(`/api/v2/policy-sets/${setId}/versions`);
    });
    const attachable = created.filter((_, i) => !plan[i].global).slice(0, 64);
    if (!versioned.length) throw new Error('no upload-versioned policy set was seeded');
    return { versionedSetId: versioned[0], attachableSetIds: attachable, effectiveWorkspaceId: effective };
  }

  /** Destinations at the end of the workspace list, 20 sources each from the start: no cycles. */
  private async runTriggers(workspaceIds: string[]): Promise<string> {
    const destinations = Math.ceil(this.size.runTriggers / SOURCES_PER_DESTINATION);
    if (destinations * (SOURCES_PER_DESTINATION + 1) > workspaceIds.length) {
      throw new Error('too few workspaces for the run triggers');
    }
    const pairs = Array.from({ length: this.size.runTriggers }, (_, k) => ({
      destination: workspaceIds[workspaceIds.length - 1 - Math.floor(k / SOURCES_PER_DESTINATION)],
      source: workspaceIds[k],
    }));
    await inParallel(pairs, PARALLEL, ({ destination, source }) =>
      this.api.post(`/api/v2/workspaces/${destination}/run-triggers`, {
        data: {
          type: 'run-triggers',
          relationships: { sourceable: { data: { type: 'workspaces', id: source } } },
        },
      }),
    );
    return workspaceIds[workspaceIds.length - 1];
  }

  private async reservedTagKeys(org: string): Promise<void> {
    const indexes = Array.from({ length: this.size.reservedTagKeys }, (_, i) => i);
    await inParallel(indexes, PARALLEL, (i) =>
      this.api.post(`/api/v2/organizations/${org}/reserved-tag-keys`, {
        data: {
          type: 'reserved-tag-keys',
          attributes: { key: `team.key-${pad(i, 4)}`, 'disable-overrides': i % 2 === 0 },
        },
      }),
    );
  }

  /**
   * Providers with versions whose SHA256SUMS is signed by a key stored in the namespace, so every
   * signature is verified on upload and the download answer carries the key.
   */
  private async providers(org: string): Promise<{ name: string; version: string }> {
    const key = await signingKey();
    await this.api.post('/api/registry/private/v2/gpg-keys', {
      data: { type: 'gpg-keys', attributes: { namespace: org, 'ascii-armor': key.publicKey } },
    });
    const names = Array.from({ length: this.size.providers }, (_, i) => `provider-${pad(i, 3)}`);
    const base = (name: string) => `/api/v2/organizations/${org}/registry-providers/private/${org}/${name}`;
    const versions = names.flatMap((name) =>
      Array.from({ length: this.size.versionsPerProvider }, (_, j) => ({ name, version: `1.${j}.0` })),
    );
    await inParallel(names, PARALLEL, (name) =>
      this.api.post(`/api/v2/organizations/${org}/registry-providers`, {
        data: {
          type: 'registry-providers',
          attributes: { name, namespace: org, 'registry-name': 'private' },
        },
      }),
    );
    await inParallel(versions, PARALLEL, async ({ name, version }) => {
      const files = PLATFORMS.map(([os, arch]) => {
        const filename = `terraform-provider-${name}_${version}_${os}_${arch}.zip`;
        return { os, arch, filename, bytes: Buffer.from(`PK\u0003\u0004 ${filename} bench binary\n`) };
      });
      const sums = Buffer.from(files.map((f) => `${sha256(f.bytes)}  ${f.filename}\n`).join(''));
      const signature = await key.sign(sums);
      const created = await this.api.post<{ data: { links: Record<string, string> } }>(
        `${base(name)}/versions`,
        {
          data: {
            type: 'registry-provider-versions',
            attributes: { version, 'key-id': key.keyId, protocols: ['5.0', '6.0'] },
          },
        },
      );
      await putBytes(created.data.links['shasums-upload'], sums);
      await putBytes(created.data.links['shasums-sig-upload'], signature);
      for (const f of files) {
        const platform = await this.api.post<{ data: { links: Record<string, string> } }>(
          `${base(name)}/versions/${version}/platforms`,
          {
            data: {
              type: 'registry-provider-platforms',
              attributes: { os: f.os, arch: f.arch, shasum: sha256(f.bytes), filename: f.filename },
            },
          },
        );
        await putBytes(platform.data.links['provider-binary-upload'], f.bytes);
      }
    });
    return { name: names[0], version: `1.${this.size.versionsPerProvider - 1}.0` };
  }
}

interface SigningKey {
  publicKey: string;
  keyId: string;
  sign(data: Buffer): Promise<Buffer>;
}

async function signingKey(): Promise<SigningKey> {
  const generated = await openpgp.generateKey({
    type: 'ecc',
    curve: 'ed25519Legacy',
    userIDs: [{ name: 'bench', email: 'bench@example.com' }],
    format: 'armored',
  });
  const signingKeys = await openpgp.readPrivateKey({ armoredKey: generated.privateKey });
  const keyId = (await openpgp.readKey({ armoredKey: generated.publicKey })).getKeyID().toHex().toUpperCase();
  return {
    publicKey: generated.publicKey,
    keyId,
    sign: async (data) =>
      Buffer.from(
        await openpgp.sign({
          message: await openpgp.createMessage({ binary: data }),
          signingKeys,
          detached: true,
          format: 'binary',
        }),
      ),
  };
}

/** A small policy set archive: a tar.gz with a config file and two policies. */
function policyArchive(): Buffer {
  return gzipSync(policyTar());
}

/** A small valid policy archive as plain tar, end-of-archive marker included. */
export function policyTar(): Buffer {
  const files: [string, string][] = [
    ['sentinel.hcl', 'policy "deny-public" {\n  enforcement_level = "advisory"\n}\n'],
    ['deny-public.sentinel', 'main = rule { true }\n'],
    ['restrict-regions.sentinel', 'main = rule { true }\n'],
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
  return Buffer.concat(blocks);
}

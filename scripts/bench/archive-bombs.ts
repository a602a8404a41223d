/**
 * npm run bench:bombs — how the server answers while it inspects archive bombs. Builds Plinth,
 * starts `node dist/main.js` on a fresh database, then runs the kinds of bombs BOMB_KINDS names:
 *
 * - `zeros`: round after round, PUTs BOMBS policy set archives at once (a valid archive followed by
 *   BOMB_MIB MiB of zeros, gzipped) while one client GETs /api/v2/ping back to back on a keep-alive
 *   connection; prints the ping latencies during the bombs beside a baseline taken before them.
 * - `links`: link-tree bombs (a chain of 39 links, then as many links into its end as the entry
 *   cap allows): one at a time for a policy set version (10,000 entries) and a configuration version
 *   (50,000), with the server CPU each took; then LINK_BOMBS configuration versions of one
 *   organization at once and, once they are under way, a normal upload of another organization,
 *   with how long its answer took.
 *
 * It prints what became of every upload. See docs/benchmarks.md.
 *
 *   BENCH_DATABASE_URL / DATABASE_URL   mysql:// or mariadb:// → its own database; else SQLite
 *   BOMB_KINDS=zeros,links  which bombs
 *   BOMBS=5            zero bombs uploaded at once
 *   BOMB_MIB=1024      MiB of zeros in each archive
 *   BOMB_ROUNDS=3      rounds of BOMBS uploads
 *   BASELINE_SECONDS=5 ping loop alone, before the bombs (after 2 s of uncounted warm-up)
 *   LINK_BOMBS=10      link-tree bombs in flight beside the normal upload
 *   BENCH_SKIP_BUILD=1 use the existing dist/
 */
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import { createGzip, gzipSync } from 'node:zlib';
import { Header } from 'tar';
import { Api, bootstrapAdmin, inParallel } from './http';
import { policyTar } from './seed';
import { BenchServer, createBenchDatabase } from './server';

const env = process.env;
const bombs = Number(env.BOMBS ?? '5');
const bombMib = Number(env.BOMB_MIB ?? '1024');
const rounds = Number(env.BOMB_ROUNDS ?? '3');
const baselineSeconds = Number(env.BASELINE_SECONDS ?? '5');
const kinds = (env.BOMB_KINDS ?? 'zeros,links').split(',');
const linkBombs = Number(env.LINK_BOMBS ?? '10');

const log = (line: string) => process.stderr.write(`${line}\n`);

/** The bomb, gzipped from a stream so the zeros never sit in memory whole. */
async function bomb(): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => gzip.on('end', resolve));
  gzip.write(policyTar());
  const zeros = Buffer.alloc(1 << 20);
  for (let i = 0; i < bombMib; i++) {
    if (!gzip.write(zeros)) await new Promise((resolve) => gzip.once('drain', resolve));
  }
  gzip.end();
  await done;
  return Buffer.concat(out);
}

/** GETs /api/v2/ping back to back until `stop()` resolves; returns each round trip in ms. */
async function pingLoop(origin: string, until: Promise<unknown>): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = `${origin}/api/v2/ping`;
  let stopped = false;
  void until.finally(() => (stopped = true));
  const times: number[] = [];
  while (!stopped) {
    const started = process.hrtime.bigint();
    await new Promise<void>((resolve, reject) => {
      http
        .get(url, { agent }, (res) => {
          res.resume();
          res.on('end', () =>
            (res.statusCode ?? 500) < 300 ? resolve() : reject(new Error(`ping ${res.statusCode}`)),
          );
        })
        .on('error', reject);
    });
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  agent.destroy();
  return times;
}

function summary(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1);
  return `${sorted.length} pings: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms`;
}

async function put(url: string, body: Buffer): Promise<{ status: number; ms: number; text: string }> {
  const started = Date.now();
  const res = await fetch(url, {
    method: 'PUT',
    body,
    headers: { 'Content-Type': 'application/octet-stream' },
  });
  const text = await res.text();
  return { status: res.status, ms: Date.now() - started, text };
}

type Resource = { data: { id: string; attributes: Record<string, unknown>; links?: Record<string, string> } };

/** A policy set of a new organization `name`, and a workspace in it. */
async function organization(api: Api, name: string): Promise<{ setId: string; workspaceId: string }> {
  await api.post('/api/v2/organizations', {
    data: { type: 'organizations', attributes: { name, email: `ops@${name}.example` } },
  });
  const set = await api.post<Resource>(`/api/v2/organizations/${name}/policy-sets`, {
    data: { type: 'policy-sets', attributes: { name, kind: 'framework_a' } },
  });
  const ws = await api.post<Resource>(`/api/v2/organizations/${name}/workspaces`, {
    data: { type: 'workspaces', attributes: { name } },
  });
  return { setId: set.data.id, workspaceId: ws.data.id };
}

async function zeroBombs(server: BenchServer, api: Api, setId: string): Promise<void> {
  const archive = await bomb();
  log(`bomb: ${archive.length} bytes of gzip, ${bombMib} MiB of zeros after a valid archive`);
  await pingLoop(server.origin, new Promise((r) => setTimeout(r, 2000)));
  const baseline = await pingLoop(server.origin, new Promise((r) => setTimeout(r, baselineSeconds * 1000)));
  log(`baseline, no upload: ${summary(baseline)}`);
  const during: number[] = [];
  const outcomes = new Map<string, number>();
  const cpuBefore = server.cpuSeconds();
  for (let round = 1; round <= rounds; round++) {
    const versions = await inParallel(Array.from({ length: bombs }), bombs, () =>
      api.post<Resource>(`/api/v2/policy-sets/${setId}/versions`),
    );
    const started = Date.now();
    const uploads = Promise.all(versions.map((v) => put(v.data.links?.upload as string, archive)));
    during.push(...(await pingLoop(server.origin, uploads)));
    const answers = await uploads;
    for (const v of versions) {
      const shown = await api.get<Resource>(`/api/v2/policy-set-versions/${v.data.id}`);
      count(outcomes, `${String(shown.data.attributes.status)}: ${String(shown.data.attributes.error)}`);
    }
    log(
      `round ${round}: ${bombs} uploads answered ${answers.map((a) => a.status).join(' ')} in ${Date.now() - started} ms ` +
        `(slowest ${Math.max(...answers.map((a) => a.ms))} ms)`,
    );
  }
  log(`during ${rounds} × ${bombs} bombs: ${summary(during)}`);
  log(`server CPU during the bombs: ${(server.cpuSeconds() - cpuBefore).toFixed(1)} s`);
  for (const [outcome, n] of outcomes) log(`  ${n} × ${outcome}`);
}

function tarEntry(path: string, type: 'File' | 'SymbolicLink', linkpath = '', body = ''): Buffer {
  const bytes = Buffer.from(body);
  const block = Buffer.alloc(512);
  new Header({ path, type, size: bytes.length, mode: 0o644, mtime: new Date(0), linkpath }).encode(block, 0);
  return Buffer.concat([block, bytes, Buffer.alloc((512 - (bytes.length % 512)) % 512)]);
}

/**
 * A link-tree bomb of `entries` tar headers: L0 -> `.`, each Lk -> L(k-1) padded with `/x/..` to
 * the header's 100 bytes (about 40 components), then links into L39. Resolving one of those
 * follows 39 links and walks about 1,600 components.
 */
function linkBomb(entries: number): Buffer {
  // policyTar() holds 3 files: with main.tf, the first part is 4 headers.
  const parts: Buffer[] = [
    Buffer.concat([policyTar().subarray(0, -1024), tarEntry('main.tf', 'File', '', '# x\n')]),
  ];
  parts.push(tarEntry('L0', 'SymbolicLink', '.'));
  for (let k = 1; k <= 39; k++) {
    let target = `L${k - 1}`;
    while (target.length + 5 <= 100) target += '/x/..';
    parts.push(tarEntry(`L${k}`, 'SymbolicLink', target));
  }
  for (let i = 0; parts.length + 3 < entries; i++) parts.push(tarEntry(`e${i}`, 'SymbolicLink', 'L39'));
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts), { level: 9 });
}

function count(outcomes: Map<string, number>, key: string): void {
  outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
}

const configurationVersion = (api: Api, workspaceId: string) =>
  api.post<Resource>(`/api/v2/workspaces/${workspaceId}/configuration-versions`, {
    data: { type: 'configuration-versions', attributes: { 'auto-queue-runs': false } },
  });

async function linkTreeBombs(server: BenchServer, api: Api, hostile: { setId: string; workspaceId: string }) {
  const normal = await organization(api, 'normal');
  const small = linkBomb(10_000);
  const large = linkBomb(50_000);
  const targets = [
    {
      name: `policy set version, ${small.length} bytes`,
      archive: small,
      create: async () =>
        (await api.post<Resource>(`/api/v2/policy-sets/${hostile.setId}/versions`)).data.links
          ?.upload as string,
    },
    {
      name: `configuration version, ${large.length} bytes`,
      archive: large,
      create: async () =>
        (await configurationVersion(api, hostile.workspaceId)).data.attributes['upload-url'] as string,
    },
  ];
  for (const target of targets) {
    for (let i = 0; i < 3; i++) {
      const link = await target.create();
      const cpuBefore = server.cpuSeconds();
      const answer = await put(link, target.archive);
      log(
        `link-tree bomb (${target.name}): ${answer.status} in ${answer.ms} ms, ` +
          `${(server.cpuSeconds() - cpuBefore).toFixed(2)} s of server CPU; ${answer.text.slice(0, 160)}`,
      );
    }
  }
  const links = await inParallel(
    Array.from({ length: linkBombs }),
    linkBombs,
    async () =>
      (await configurationVersion(api, hostile.workspaceId)).data.attributes['upload-url'] as string,
  );
  const normalLink = (await configurationVersion(api, normal.workspaceId)).data.attributes[
    'upload-url'
  ] as string;
  const cpuBefore = server.cpuSeconds();
  const hostileAnswers = Promise.all(links.map((link) => put(link, large)));
  // Let the bombs arrive and be stored first.
  await new Promise((r) => setTimeout(r, 500));
  const normalAnswer = await put(
    normalLink,
    gzipSync(Buffer.concat([tarEntry('main.tf', 'File', '', '# ok\n'), Buffer.alloc(1024)])),
  );
  const answers = await hostileAnswers;
  const outcomes = new Map<string, number>();
  for (const answer of answers) count(outcomes, `${answer.status} ${answer.text.slice(0, 140)}`);
  log(
    `${linkBombs} link-tree bombs of one organization in flight: another organization's normal upload ` +
      `answered ${normalAnswer.status} in ${normalAnswer.ms} ms; the bombs answered within ` +
      `${Math.max(...answers.map((a) => a.ms))} ms, ${(server.cpuSeconds() - cpuBefore).toFixed(1)} s of server CPU`,
  );
  for (const [outcome, n] of outcomes) log(`  ${n} × ${outcome}`);
}

async function main(): Promise<void> {
  if (env.BENCH_SKIP_BUILD !== '1') execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });
  const db = await createBenchDatabase(env.BENCH_DATABASE_URL ?? env.DATABASE_URL);
  const server = await BenchServer.start({ db, workers: 1 });
  try {
    log(`database: ${db.dialect}`);
    const api = new Api(server.origin, await bootstrapAdmin(server.origin));
    const hostile = await organization(api, 'bombs');
    if (kinds.includes('zeros')) await zeroBombs(server, api, hostile.setId);
    if (kinds.includes('links')) await linkTreeBombs(server, api, hostile);
  } finally {
    await server.stop();
    await db.drop();
  }
}

main().catch((err) => {
  log(String(err instanceof Error ? err.stack : err));
  process.exit(1);
});

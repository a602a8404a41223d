/**
 * npm run bench:bombs — how the server answers while it inspects archive bombs. Builds Plinth,
 * starts `node dist/main.js` on a fresh database, then, round after round, PUTs BOMBS policy set
 * archives at once (a valid archive followed by BOMB_MIB MiB of zeros, gzipped) while one client
 * GETs /api/v2/ping back to back on a keep-alive connection. Prints the ping latencies during the
 * bombs beside a baseline taken before them, and what became of every upload. See docs/benchmarks.md.
 *
 *   BENCH_DATABASE_URL / DATABASE_URL   mysql:// or mariadb:// → its own database; else SQLite
 *   BOMBS=5            archives uploaded at once
 *   BOMB_MIB=1024      MiB of zeros in each archive
 *   BOMB_ROUNDS=3      rounds of BOMBS uploads
 *   BASELINE_SECONDS=5 ping loop alone, before the bombs (after 2 s of uncounted warm-up)
 *   BENCH_SKIP_BUILD=1 use the existing dist/
 */
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import { createGzip } from 'node:zlib';
import { Api, bootstrapAdmin, inParallel } from './http';
import { policyTar } from './seed';
import { BenchServer, createBenchDatabase } from './server';

const env = process.env;
const bombs = Number(env.BOMBS ?? '5');
const bombMib = Number(env.BOMB_MIB ?? '1024');
const rounds = Number(env.BOMB_ROUNDS ?? '3');
const baselineSeconds = Number(env.BASELINE_SECONDS ?? '5');

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

async function put(url: string, body: Buffer): Promise<{ status: number; ms: number }> {
  const started = Date.now();
  const res = await fetch(url, {
    method: 'PUT',
    body,
    headers: { 'Content-Type': 'application/octet-stream' },
  });
  await res.text();
  return { status: res.status, ms: Date.now() - started };
}

async function main(): Promise<void> {
  if (env.BENCH_SKIP_BUILD !== '1') execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });
  const archive = await bomb();
  log(`bomb: ${archive.length} bytes of gzip, ${bombMib} MiB of zeros after a valid archive`);
  const db = await createBenchDatabase(env.BENCH_DATABASE_URL ?? env.DATABASE_URL);
  const server = await BenchServer.start({ db, workers: 1 });
  try {
    const api = new Api(server.origin, await bootstrapAdmin(server.origin));
    await api.post('/api/v2/organizations', {
      data: { type: 'organizations', attributes: { name: 'bombs', email: 'ops@bombs.example' } },
    });
    const set = await api.post<{ data: { id: string } }>('/api/v2/organizations/bombs/policy-sets', {
      data: { type: 'policy-sets', attributes: { name: 'bombs', kind: 'framework_a' } },
    });
    await pingLoop(server.origin, new Promise((r) => setTimeout(r, 2000)));
    const baseline = await pingLoop(server.origin, new Promise((r) => setTimeout(r, baselineSeconds * 1000)));
    log(`baseline (${db.dialect}), no upload: ${summary(baseline)}`);
    const during: number[] = [];
    const outcomes = new Map<string, number>();
    const cpuBefore = server.cpuSeconds();
    for (let round = 1; round <= rounds; round++) {
      const versions = await inParallel(Array.from({ length: bombs }), bombs, () =>
        api.post<{ data: { id: string; links: { upload: string } } }>(
          `/api/v2/policy-sets/${set.data.id}/versions`,
        ),
      );
      const started = Date.now();
      const uploads = Promise.all(versions.map((v) => put(v.data.links.upload, archive)));
      during.push(...(await pingLoop(server.origin, uploads)));
      const answers = await uploads;
      for (const v of versions) {
        const shown = await api.get<{ data: { attributes: { status: string; error: string | null } } }>(
          `/api/v2/policy-set-versions/${v.data.id}`,
        );
        const key = `${shown.data.attributes.status}: ${shown.data.attributes.error}`;
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      }
      log(
        `round ${round}: ${bombs} uploads answered ${answers.map((a) => a.status).join(' ')} in ${Date.now() - started} ms ` +
          `(slowest ${Math.max(...answers.map((a) => a.ms))} ms)`,
      );
    }
    log(`during ${rounds} × ${bombs} bombs: ${summary(during)}`);
    log(`server CPU during the bombs: ${(server.cpuSeconds() - cpuBefore).toFixed(1)} s`);
    for (const [outcome, count] of outcomes) log(`  ${count} × ${outcome}`);
  } finally {
    await server.stop();
    await db.drop();
  }
}

main().catch((err) => {
  log(String(err instanceof Error ? err.stack : err));
  process.exit(1);
});

import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';

/** Where the benchmark's server keeps its data: a MySQL database of its own or a SQLite file. */
export interface BenchDatabase {
  dialect: 'mysql' | 'sqlite';
  /** DATABASE_URL handed to the server. */
  url: string;
  dataDir: string;
  /** MySQL: the server URL without a database, for the bench's own connections. */
  mysqlServerUrl?: string;
  mysqlDatabase?: string;
  sqlitePath?: string;
  drop(): Promise<void>;
}

/** A fresh database: MySQL when the URL says mysql:/mariadb:, otherwise SQLite in a temp DATA_DIR. */
export async function createBenchDatabase(given: string | undefined): Promise<BenchDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'plinth-bench-'));
  const described = (db: BenchDatabase) => {
    writeFileSync(join(dataDir, DATABASE_FILE), JSON.stringify({ ...db, drop: undefined }));
    return db;
  };
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (given && /^(mysql|mariadb):/.test(given)) {
    const parsed = new URL(given);
    parsed.pathname = '';
    const serverUrl = parsed.toString().replace(/\/$/, '');
    const database = `plinth_bench_${randomBytes(4).toString('hex')}`;
    await withMysql(serverUrl, (c) =>
      c.query(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`),
    );
    return described({
      dialect: 'mysql',
      url: `${serverUrl}/${database}`,
      dataDir,
      mysqlServerUrl: serverUrl,
      mysqlDatabase: database,
      drop: async () => {
        await withMysql(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS \`${database}\``));
        removeDir();
      },
    });
  }
  const sqlitePath = join(dataDir, 'plinth.sqlite');
  return described({
    dialect: 'sqlite',
    url: `sqlite:${sqlitePath}`,
    dataDir,
    sqlitePath,
    drop: async () => removeDir(),
  });
}

const DATABASE_FILE = 'bench-database.json';

/** The database an earlier run kept (BENCH_KEEP=1) in `dataDir`; never dropped by this run. */
export function reuseBenchDatabase(dataDir: string): BenchDatabase {
  const kept = JSON.parse(readFileSync(join(dataDir, DATABASE_FILE), 'utf8')) as Omit<BenchDatabase, 'drop'>;
  return { ...kept, dataDir, drop: async () => undefined };
}

async function withMysql<T>(
  url: string,
  work: (c: Awaited<ReturnType<typeof createConnection>>) => Promise<T>,
): Promise<T> {
  const c = await createConnection(url.replace(/^mariadb:/, 'mysql:'));
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

/**
 * How many statements the MySQL server has run so far (its `Questions` counter, every client's),
 * read over a connection of its own; undefined for SQLite, which runs inside the server process.
 */
export async function statementsRun(db: BenchDatabase): Promise<number | undefined> {
  if (db.dialect !== 'mysql' || !db.mysqlServerUrl) return undefined;
  return withMysql(db.mysqlServerUrl, async (c) => {
    const [rows] = await c.query("SHOW GLOBAL STATUS LIKE 'Questions'");
    return Number((rows as { Value: string }[])[0].Value);
  });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface ServerOptions {
  db: BenchDatabase;
  workers: number;
  /** Directory for V8 CPU profiles (`node --cpu-prof`), or none. */
  profileDir?: string;
  /** Its log file in the data directory (`server.log`); a second server on the same database needs another. */
  logName?: string;
  /** Settings of this server beyond the bench's environment (a pruning server's retention). */
  env?: Record<string, string>;
}

/** The signing secret of the bench's servers (the reference server signs upload links with it too). */
export const BENCH_SIGNING_SECRET = 'bench-signing-secret-of-at-least-32-bytes';

/** `node dist/main.js` as a child process, its log in the data directory. */
export class BenchServer {
  private constructor(
    readonly origin: string,
    private readonly child: ChildProcess,
    readonly logPath: string,
  ) {}

  static async start(opts: ServerOptions): Promise<BenchServer> {
    const port = await freePort();
    const logPath = join(opts.db.dataDir, opts.logName ?? 'server.log');
    const log = createWriteStream(logPath);
    const nodeArgs = opts.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${opts.profileDir}`] : [];
    const child = spawn(process.execPath, [...nodeArgs, 'dist/main.js'], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: opts.db.dataDir,
        DATABASE_URL: opts.db.url,
        RATE_LIMIT_PER_SECOND: '0',
        LOG_LEVEL: 'warn',
        WEB_CONCURRENCY: String(opts.workers),
        SIGNING_SECRET: BENCH_SIGNING_SECRET,
        // The notifications scenario's receiver listens on loopback.
        NOTIFICATION_ALLOWED_NETWORKS: '127.0.0.1/32',
        ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
        // The caches' settings, when the run is to measure them otherwise (RESPONSE_CACHE_MB=0), and the
        // audit trail's (AUDIT_RETENTION_DAYS=0 measures writes without it).
        ...pick(process.env, [
          'CACHE_TTL_MS',
          'RESPONSE_CACHE_MB',
          'AUDIT_RETENTION_DAYS',
          'NOTIFICATION_CONCURRENCY',
          'NOTIFICATION_POLL_MS',
          'RUN_LOG_RETENTION_DAYS',
          'PLAN_JSON_RETENTION_DAYS',
        ]),
        ...opts.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    const server = new BenchServer(`http://127.0.0.1:${port}`, child, logPath);
    await server.waitReady();
    return server;
  }

  private async waitReady(): Promise<void> {
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) {
        throw new Error(`server exited with ${this.child.exitCode}; see ${this.logPath}`);
      }
      try {
        const res = await fetch(`${this.origin}/readyz`);
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`server not ready after 120 s; see ${this.logPath}`);
  }

  get pid(): number {
    if (this.child.pid === undefined) throw new Error('server has no pid');
    return this.child.pid;
  }

  /** The server's process and every process below it (cluster workers). */
  pids(): number[] {
    return processTree(this.pid);
  }

  /** Resident set size of the server and every process below it (cluster workers), in bytes. */
  rss(): number {
    return processTree(this.pid).reduce((sum, pid) => sum + rssOf(pid), 0);
  }

  /** CPU seconds (user + system) used so far by the server and every process below it. */
  cpuSeconds(): number {
    return processTree(this.pid).reduce((sum, pid) => sum + cpuOf(pid), 0);
  }

  /** SIGTERM, then SIGKILL after 15 s; resolves when the process is gone. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }
}

/** `root` and its descendants, from the parent pids in /proc. */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name is in parentheses and may contain spaces: fields start after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // the process ended while we looked
    }
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift() as number;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

const TICKS_PER_SECOND = 100;

/** utime + stime of one process, in seconds (0 once it is gone). */
export function cpuOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the command: state is field 3, utime 14 and stime 15 (1-based over the whole line).
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds of the local MariaDB/MySQL server processes (mariadbd, mysqld), if any run here; with
 * BENCH_DATABASE_PID, of that process only (a server of the bench's own beside a shared one).
 */
export function databaseCpuSeconds(): number {
  if (process.env.BENCH_DATABASE_PID) return cpuOf(Number(process.env.BENCH_DATABASE_PID));
  let sum = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (comm === 'mariadbd' || comm === 'mysqld') sum += cpuOf(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return sum;
}

function rssOf(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Samples `read` every 500 ms until stopped; reports the peak. */
export function samplePeak(read: () => number): { stop: () => number } {
  let peak = read();
  const timer = setInterval(() => {
    peak = Math.max(peak, read());
  }, 500);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, read());
    },
  };
}

function pick(env: NodeJS.ProcessEnv, names: string[]): Record<string, string> {
  return Object.fromEntries(names.flatMap((n) => (env[n] === undefined ? [] : [[n, env[n]]])));
}

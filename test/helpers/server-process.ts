import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '../..');

/** Runs the TypeScript sources, transpiled once per run and kept on disk (ts-register.js). */
const TS_REGISTER = join(__dirname, 'ts-register.js');

export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.on('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => ok(port));
    });
  });
}

/** The minimal environment of the processes started here; each adds its own on top. */
function baseEnv(): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    SIGNING_SECRET: 'process-test-signing-secret-of-32-bytes',
    RATE_LIMIT_PER_SECOND: '0',
    PASSWORD_HASH_COST: '10',
  };
}

/**
 * Runs `entry` (relative to the repository, e.g. `src/cli.ts`) with `args` to its end, in the
 * environment of a server process with `env` on top; resolves with its exit code and output.
 */
export function runScript(
  entry: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['-r', TS_REGISTER, entry, ...args], {
      cwd: ROOT,
      env: { ...baseEnv(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** A Plinth process started from TypeScript sources, its output collected line by line. */
export class ServerProcess {
  readonly lines: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly origin: string;

  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
    readonly dataDir: string,
  ) {
    this.origin = `http://127.0.0.1:${port}`;
    for (const stream of [child.stdout!, child.stderr!]) {
      let rest = '';
      stream.on('data', (chunk: Buffer) => {
        const parts = (rest + chunk.toString()).split('\n');
        rest = parts.pop()!;
        this.lines.push(...parts);
      });
    }
    this.exited = new Promise((ok) => child.on('exit', (code, signal) => ok({ code, signal })));
  }

  /**
   * `entry` relative to the repository, e.g. `src/main.ts`; env on top of a minimal environment.
   * `dataDir` restarts on the data directory of an earlier (killed) process instead of a fresh one.
   */
  static async start(
    entry: string,
    env: Record<string, string> = {},
    dataDir = mkdtempSync(join(tmpdir(), 'plinth-proc-')),
  ): Promise<ServerProcess> {
    const port = await freePort();
    const child = spawn(process.execPath, ['-r', TS_REGISTER, entry], {
      cwd: ROOT,
      env: { ...baseEnv(), PORT: String(port), DATA_DIR: dataDir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new ServerProcess(child, port, dataDir);
  }

  /** Waits for a line matching `pattern` and returns it. */
  async waitForLine(pattern: RegExp, ms = 60_000): Promise<string> {
    const end = Date.now() + ms;
    for (;;) {
      const line = this.lines.find((l) => pattern.test(l));
      if (line) return line;
      if (this.child.exitCode !== null) throw new Error(`process exited:\n${this.lines.join('\n')}`);
      if (Date.now() > end)
        throw new Error(`no line matching ${pattern} within ${ms} ms:\n${this.lines.join('\n')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Waits until /healthz answers. */
  async ready(ms = 60_000): Promise<void> {
    const end = Date.now() + ms;
    for (;;) {
      try {
        const res = await fetch(`${this.origin}/healthz`);
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      if (this.child.exitCode !== null) throw new Error(`process exited:\n${this.lines.join('\n')}`);
      if (Date.now() > end) throw new Error(`not ready within ${ms} ms:\n${this.lines.join('\n')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Process ids of the direct children (cluster workers). */
  children(): number[] {
    try {
      return execFileSync('ps', ['-o', 'pid=', '--ppid', String(this.child.pid)], { encoding: 'utf8' })
        .split('\n')
        .map((s) => Number(s.trim()))
        .filter((n) => n > 0);
    } catch {
      return [];
    }
  }

  /** `kill -9` of the process and its workers, if it still runs; the data directory stays. */
  async kill(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      for (const pid of this.children()) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      this.child.kill('SIGKILL');
      await this.exited;
    }
  }

  /** Stops the process (and its workers) if it still runs, and removes its data directory. */
  async dispose(): Promise<void> {
    await this.kill();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

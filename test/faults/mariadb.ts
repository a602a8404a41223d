import { execFileSync, spawnSync } from 'node:child_process';
import { connect } from 'node:net';

const HOST = '127.0.0.1';
const PORT = 3306;

/** True when MariaDB accepts TCP connections on 127.0.0.1:3306. */
export function listening(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(PORT, HOST);
    socket.setTimeout(1000);
    socket.on('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', () => resolve(false));
  });
}

function answers(): boolean {
  return spawnSync('mariadb', ['-h', HOST, '-uroot', '-e', 'SELECT 1'], { stdio: 'ignore' }).status === 0;
}

async function waitFor(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`MariaDB: timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Stops the local MariaDB for real and waits until its port is closed. */
export async function stopMariaDb(): Promise<void> {
  execFileSync('mariadb-admin', ['-uroot', 'shutdown'], { stdio: 'ignore' });
  await waitFor(async () => !(await listening()), 20_000, 'it stopped');
}

/** Starts the local MariaDB (a no-op when it runs) and waits until it answers queries. */
export async function startMariaDb(): Promise<void> {
  execFileSync('start-stop-daemon', ['--start', '--oknodo', '--background', '--exec', '/usr/sbin/mariadbd'], {
    stdio: 'ignore',
  });
  await waitFor(answers, 60_000, 'it answers');
}

import { spawnSync } from 'node:child_process';

/**
 * Whether a TCP service answers at the URL's host and port, asked synchronously so a suite can
 * choose `describe` or `describe.skip` while jest collects it.
 */
export function tcpReachable(url: string, timeoutMs = 1000): boolean {
  const { hostname, port } = new URL(url);
  const probe = `
    const socket = require('node:net').connect(${Number(port)}, ${JSON.stringify(hostname)});
    socket.setTimeout(${timeoutMs}, () => process.exit(1));
    socket.on('connect', () => process.exit(0));
    socket.on('error', () => process.exit(1));`;
  return spawnSync(process.execPath, ['-e', probe], { timeout: timeoutMs * 2 }).status === 0;
}

import { existsSync, readdirSync } from 'node:fs';
import { IncomingMessage, request } from 'node:http';
import { join } from 'node:path';

/** Every file under `dir` (recursively), as paths relative to it. */
export function filesIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

/** Polls `probe` until it answers something other than undefined. */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface PartialUpload {
  /** Sends the rest of the body and reads the answer (its body parsed as JSON when there is one). */
  finish(rest: Buffer): Promise<{ status: number; body: unknown }>;
  /** Drops the connection. */
  abort(): void;
}

/**
 * A PUT to `link` (its path, on `origin`) that declares `declared` bytes and sends only `first`:
 * an upload in progress, for as long as the test wants.
 */
export function startPartialUpload(
  origin: string,
  link: string,
  declared: number,
  first: Buffer,
): PartialUpload {
  const url = new URL(origin);
  const req = request({
    host: url.hostname,
    port: url.port,
    method: 'PUT',
    path: new URL(link, origin).pathname,
    agent: false,
    headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(declared) },
  });
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    req.on('response', resolve);
    req.on('error', reject);
  });
  response.catch(() => undefined);
  req.write(first);
  return {
    finish: async (rest) => {
      req.end(rest);
      const res = await response;
      const chunks: Buffer[] = [];
      for await (const chunk of res) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString();
      return { status: res.statusCode!, body: text ? JSON.parse(text) : undefined };
    },
    abort: () => req.destroy(),
  };
}

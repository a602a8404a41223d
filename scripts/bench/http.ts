import { Agent, request } from 'node:http';

/** A tiny JSON:API client for seeding the benchmark through the public API. */
export class Api {
  constructor(
    readonly origin: string,
    private readonly token: string,
  ) {}

  async call<
    T = { data: { id: string; attributes: Record<string, unknown>; links?: Record<string, string> } },
  >(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.origin}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/vnd.api+json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  post = <T>(path: string, body?: unknown) => this.call<T>('POST', path, body);
  get = <T>(path: string) => this.call<T>('GET', path);
}

/** Claims the first administrator of a fresh server (from loopback) and returns its token. */
export async function bootstrapAdmin(origin: string): Promise<string> {
  const iact = await (await fetch(`${origin}/admin/retrieve-iact`)).text();
  const res = await fetch(`${origin}/admin/initial-admin-user?token=${encodeURIComponent(iact)}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'bench', email: 'bench@example.com', password: 'bench-password-123' }),
  });
  if (res.status !== 201) throw new Error(`initial admin: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/**
 * PUTs raw bytes to a signed link (no Authorization, as consumer tooling does). A 429 (the
 * organization's archive inspections are all under way) is sent again after its Retry-After.
 */
export async function putBytes(url: string, bytes: Buffer | string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(url, {
      method: 'PUT',
      body: bytes,
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    if (res.ok) return;
    const text = await res.text();
    if (res.status !== 429 || attempt >= 20)
      throw new Error(`PUT ${url} → ${res.status}: ${text.slice(0, 300)}`);
    const wait = Number(res.headers.get('retry-after') ?? '1');
    await new Promise((r) => setTimeout(r, (Number.isFinite(wait) ? Math.min(wait, 5) : 1) * 1000));
  }
}

/** Runs `work` over `items` with at most `concurrency` in flight. */
export async function inParallel<T, R>(
  items: T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const runners = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i], i);
    }
  });
  await Promise.all(runners);
  return out;
}

/** A request over a kept-alive agent: status and body, never throws on a status. */
export function requestOn(
  agent: Agent,
  url: URL,
  method: string,
  path: string,
  headers: Record<string, string | number>,
  body?: string,
) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path,
        method,
        headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The job of a claim's answer, or of a report's that handed one over (`finish?next=true`). */
export function jobOf(text: string): { id: string; kind: string } {
  return (JSON.parse(text) as { job: { id: string; kind: string } }).job;
}

/**
 * A POST over a kept-alive agent as an executor sends it (its token, `X-Plinth-Agent` once
 * registered): plain JSON to the agent protocol, JSON:API elsewhere.
 */
export function agentPost(
  agent: Agent,
  url: URL,
  path: string,
  secret: string,
  agentId: string | undefined,
  body = '{}',
) {
  return requestOn(
    agent,
    url,
    'POST',
    path,
    {
      authorization: `Bearer ${secret}`,
      'content-type': path.startsWith('/api/v2/agent/') ? 'application/json' : 'application/vnd.api+json',
      ...(agentId ? { 'x-plinth-agent': agentId } : {}),
    },
    body,
  );
}

/** A new agent token of the pool, as its secret. */
export async function issueAgentToken(api: Api, poolId: string, description: string): Promise<string> {
  const token = await api.post<{ data: { attributes: { token: string } } }>(
    `/api/v2/agent-pools/${poolId}/authentication-tokens`,
    { data: { type: 'authentication-tokens', attributes: { description } } },
  );
  return token.data.attributes.token;
}

/** Registers an executor with the token's secret, as the reference executor does; its agent id. */
export async function registerExecutor(
  agent: Agent,
  url: URL,
  secret: string,
  name: string,
): Promise<string> {
  const res = await agentPost(
    agent,
    url,
    '/api/v2/agent/register',
    secret,
    undefined,
    JSON.stringify({ name }),
  );
  if (res.status !== 201) throw new Error(`register → ${res.status}: ${res.text.slice(0, 200)}`);
  return (JSON.parse(res.text) as { 'agent-id': string })['agent-id'];
}

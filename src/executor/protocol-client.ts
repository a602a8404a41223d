import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { JobPayload, PolicyResult, Registration } from '../agent-pools/agent-protocol.types';
import { ChangeCounts } from './plan-summary';

export type { Registration };
export type Job = JobPayload;

export type JobReport =
  | ({ status: 'finished' } & Partial<ChangeCounts>)
  | { status: 'finished'; results: PolicyResult[] }
  | { status: 'errored'; 'error-message': string };

export class ProtocolError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ProtocolError';
  }
}

/** The executor's side of the job protocol: plain JSON calls and the signed links a job carries. */
export class ProtocolClient {
  private agentId?: string;

  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  async register(name: string): Promise<Registration> {
    const registration = (await this.call('/register', { name }, [201])) as Registration;
    this.agentId = registration['agent-id'];
    return registration;
  }

  /** The next job of the pool, or null when there is none. */
  async claim(): Promise<Job | null> {
    const body = (await this.call('/jobs/claim', undefined, [200, 204])) as { job: Job } | undefined;
    return body?.job ?? null;
  }

  async heartbeat(jobId: string): Promise<'running' | 'canceled'> {
    const body = (await this.call(`/jobs/${jobId}/heartbeat`, undefined, [200])) as { status: string };
    return body.status === 'canceled' ? 'canceled' : 'running';
  }

  async finish(jobId: string, report: JobReport): Promise<void> {
    await this.call(`/jobs/${jobId}/finish`, report, [204]);
  }

  /** Streams a signed download link into a file. */
  async download(url: string, file: string): Promise<void> {
    const res = await fetch(url);
    if (res.status !== 200 || !res.body)
      throw new ProtocolError(`GET ${redact(url)} answered ${res.status}`, res.status);
    await pipeline(Readable.fromWeb(res.body), createWriteStream(file));
  }

  /** PUTs a whole body to a signed upload link. */
  async upload(url: string, body: Buffer | string): Promise<void> {
    const res = await fetch(url, {
      method: 'PUT',
      body,
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    await res.arrayBuffer();
    if (res.status >= 300) throw new ProtocolError(`PUT ${redact(url)} answered ${res.status}`, res.status);
  }

  private async call(path: string, body: unknown, expected: number[]): Promise<unknown> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.token}`,
      'Content-Type': 'application/json',
    };
    if (this.agentId) headers['X-Plinth-Agent'] = this.agentId;
    const res = await fetch(`${this.baseUrl}/api/v2/agent${path}`, {
      method: 'POST',
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!expected.includes(res.status)) {
      throw new ProtocolError(`POST ${path} answered ${res.status}: ${text.slice(0, 500)}`, res.status);
    }
    return text ? (JSON.parse(text) as unknown) : undefined;
  }
}

/** Signed links are capabilities: logs show where they point, not their token. */
function redact(url: string): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname.replace(/[^/]{24,}/g, '…')}`;
}

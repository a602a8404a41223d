import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type {
  HeartbeatAnswer,
  JobPayload,
  PolicyResult,
  Registration,
} from '../runs/protocol/agent-protocol.types';
import { ChangeCounts } from './plan-summary';

export type { Registration };
export type Job = JobPayload;

export type JobReport =
  | ({ status: 'finished' } & Partial<ChangeCounts>)
  | { status: 'finished'; results: PolicyResult[] }
  | { status: 'errored'; 'error-message': string };

/** Plinth answered, with a status the call does not take. */
export class ProtocolError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** How long the answer's Retry-After asked to wait, when it had one. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ProtocolError';
  }
}

/** Reads Retry-After in both of its forms: delay-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** How long one protocol call or log upload may take before it counts as failed (and is tried again). */
export const REQUEST_TIMEOUT_MS = 30_000;

/** The executor's side of the job protocol: plain JSON calls and the signed links a job carries. */
export class ProtocolClient {
  private agentId?: string;

  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
    private readonly timeoutMs = REQUEST_TIMEOUT_MS,
  ) {}

  async register(name: string): Promise<Registration> {
    const registration = (await this.call('/register', { name }, [201])) as Registration;
    this.agentId = registration['agent-id'];
    return registration;
  }

  /**
   * The next job of the pool, or null when there is none. With `waitSeconds`, Plinth holds the
   * call until a job is queued or the time is up (a long poll); the call's own time limit grows by
   * as much.
   */
  async claim(waitSeconds = 0, signal?: AbortSignal): Promise<Job | null> {
    const path = waitSeconds > 0 ? `/jobs/claim?wait=${waitSeconds}` : '/jobs/claim';
    const wait = { extraMs: waitSeconds * 1000, signal };
    const body = (await this.call(path, undefined, [200, 204], undefined, wait)) as { job: Job } | undefined;
    return body?.job ? this.received(body.job) : null;
  }

  async heartbeat(jobId: string): Promise<'running' | 'canceled'> {
    const body = (await this.call(`/jobs/${jobId}/heartbeat`, undefined, [200])) as HeartbeatAnswer;
    return body.status === 'canceled' ? 'canceled' : 'running';
  }

  /**
   * Reports how a job ended. `agentId` names the agent that claimed it when that is not this
   * client's registration: a report kept on disk and sent again after a restart. With `next`,
   * Plinth claims the agent's next job in the same request and answers with it (null when there
   * is none, or from a Plinth that does not hand jobs over this way).
   */
  async finish(jobId: string, report: JobReport, agentId?: string, next = false): Promise<Job | null> {
    const path = next ? `/jobs/${jobId}/finish?next=true` : `/jobs/${jobId}/finish`;
    const body = (await this.call(path, report, [200, 204], agentId)) as { job?: Job } | undefined;
    return body?.job ? this.received(body.job) : null;
  }

  /** Every job Plinth hands this client, by a claim or with a report's answer, passes here once. */
  protected received(job: Job): Job {
    return job;
  }

  /** Streams a signed download link into a file (no time limit: saved plans can be large). */
  async download(url: string, file: string): Promise<void> {
    const res = await fetch(url);
    if (res.status !== 200 || !res.body) {
      await res.body?.cancel();
      throw failure(`GET ${redact(url)}`, res);
    }
    await pipeline(Readable.fromWeb(res.body), createWriteStream(file));
  }

  /**
   * PUTs a whole body to a signed upload link. `timed` bounds it like a protocol call (logs);
   * the plan JSON and saved plan may take as long as they need.
   */
  async upload(url: string, body: Buffer | string, timed = false): Promise<void> {
    const res = await fetch(url, {
      method: 'PUT',
      body,
      headers: { 'Content-Type': 'application/octet-stream' },
      signal: timed ? AbortSignal.timeout(this.timeoutMs) : undefined,
    });
    await res.arrayBuffer();
    if (res.status >= 300) throw failure(`PUT ${redact(url)}`, res);
  }

  /**
   * Appends log bytes at `offset` through the job's log link, bounded like a protocol call. Plinth
   * acknowledges bytes it already has, so sending a chunk again is harmless.
   */
  async appendLog(url: string, offset: number, bytes: Buffer): Promise<void> {
    const target = new URL(url);
    target.searchParams.set('offset', String(offset));
    await this.upload(target.toString(), bytes, true);
  }

  private async call(
    path: string,
    body: unknown,
    expected: number[],
    agentId?: string,
    /** A long poll: more time, and hanging up when the executor stops. */
    wait?: { extraMs: number; signal?: AbortSignal },
  ): Promise<unknown> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.token}`,
      'Content-Type': 'application/json',
    };
    const agent = agentId ?? this.agentId;
    if (agent) headers['X-Plinth-Agent'] = agent;
    const res = await fetch(`${this.baseUrl}/api/v2/agent${path}`, {
      method: 'POST',
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: withStop(AbortSignal.timeout(this.timeoutMs + (wait?.extraMs ?? 0)), wait?.signal),
    });
    const text = await res.text();
    if (!expected.includes(res.status)) throw failure(`POST ${path}`, res, text);
    return text ? (JSON.parse(text) as unknown) : undefined;
  }
}

function withStop(timeout: AbortSignal, stop?: AbortSignal): AbortSignal {
  return stop ? AbortSignal.any([timeout, stop]) : timeout;
}

function failure(what: string, res: Response, text?: string): ProtocolError {
  const detail = text ? `: ${text.slice(0, 500)}` : '';
  return new ProtocolError(
    `${what} answered ${res.status}${detail}`,
    res.status,
    parseRetryAfter(res.headers.get('retry-after')),
  );
}

/** Signed links are capabilities: logs show where they point, not their token. */
function redact(url: string): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname.replace(/[^/]{24,}/g, '…')}`;
}

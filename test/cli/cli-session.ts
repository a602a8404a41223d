import { LogReader } from '../runs/log-reader';

/** The CLI version the replay claims to be (`Terraform-Version`), also pinned on the workspace. */
export const CLI_VERSION = '1.9.5';

/** One request as the CLI sent it, and what came back. */
export interface Call {
  method: string;
  /** Path and query, relative to the origin; foreign URLs (upload and log links) are marked `foreign`. */
  path: string;
  status: number;
  foreign: boolean;
  authorized: boolean;
  headers: Headers;
}

export interface Answer<T = JsonDoc> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

// The documents are read field by field, as the Go client's decoder does: loosely typed on purpose.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JsonDoc = any;

const FINAL_PHASE = ['finished', 'errored', 'canceled', 'unreachable'];

/**
 * The HTTP side of the real CLI with a `cloud` block: go-tfe's requests with its default headers
 * (`User-Agent: go-tfe`, `Terraform-Version`, `X-Terraform-Integration: cloud`, `Accept` and, on
 * bodies, `Content-Type` of JSON:API, the bearer token), its foreign PUTs (no Authorization,
 * `application/octet-stream`) and its log reader (test/runs/log-reader.ts). Every call is kept in
 * `calls`, so a test can hold the sequence to the reference's (§5.4–§5.9), and every answer
 * under `/api/v2` is checked for the headers the CLI reads (§5.3).
 *
 * Steps shared by several commands (`uploadConfiguration`, `createRun`, `waitForRun`, `readLog`)
 * are methods here, so a sequence another command makes (a saved plan, `-refresh-only`) is
 * written from the same pieces.
 */
export class CliSession {
  readonly calls: Call[] = [];

  constructor(
    readonly origin: string,
    private readonly token: string,
    readonly organization: string,
    readonly workspaceName: string,
  ) {}

  private defaultHeaders(): Record<string, string> {
    return {
      'User-Agent': 'go-tfe',
      'Terraform-Version': CLI_VERSION,
      'X-Terraform-Integration': 'cloud',
    };
  }

  /** A go-tfe API call: JSON:API in and out, with the token. */
  async api<T = JsonDoc>(method: string, path: string, body?: unknown): Promise<Answer<T>> {
    const headers: Record<string, string> = {
      ...this.defaultHeaders(),
      Accept: 'application/vnd.api+json',
      Authorization: `Bearer ${this.token}`,
    };
    if (body !== undefined) headers['Content-Type'] = 'application/vnd.api+json';
    return this.send<T>(
      method,
      `/api/v2${path}`,
      headers,
      body === undefined ? undefined : JSON.stringify(body),
    );
  }

  /** A request outside go-tfe's JSON:API calls (discovery, `json-output-redacted`, the apply comment). */
  async raw<T = JsonDoc>(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<Answer<T>> {
    return this.send<T>(method, path, { ...this.defaultHeaders(), ...headers }, body);
  }

  /** go-tfe's `doForeignPUTRequest`: an absolute link, raw bytes, no Authorization. */
  async foreignPut(url: string, bytes: Buffer): Promise<Answer<string>> {
    return this.send<string>(
      'PUT',
      url,
      {
        ...this.defaultHeaders(),
        Accept: 'application/json, */*',
        'Content-Type': 'application/octet-stream',
      },
      bytes,
    );
  }

  private async send<T>(
    method: string,
    target: string,
    headers: Record<string, string>,
    body?: string | Buffer,
  ): Promise<Answer<T>> {
    const foreign = /^https?:\/\//.test(target);
    const url = foreign ? target : `${this.origin}${target}`;
    const res = await fetch(url, { method, headers, body });
    const text = await res.text();
    const parsed =
      /json/.test(res.headers.get('content-type') ?? '') && text !== '' ? JSON.parse(text) : text;
    const path = foreign ? new URL(target).pathname : target;
    this.calls.push({
      method,
      path,
      status: res.status,
      foreign,
      authorized: 'Authorization' in headers,
      headers: res.headers,
    });
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  /** The calls made since `from` (an index into `calls`), as `METHOD path` lines with status. */
  since(from: number): string[] {
    return this.calls.slice(from).map((c) => `${c.method} ${c.foreign ? '<foreign>' : c.path} ${c.status}`);
  }

  // ---- Steps shared by commands ----

  /** `GET /organizations/:org/workspaces/:name`, what every command starts with. */
  readWorkspace(): Promise<Answer> {
    return this.api('GET', `/organizations/${this.organization}/workspaces/${this.workspaceName}`);
  }

  /**
   * §5.5 steps 2–4: create a configuration version, PUT the slug to its `upload-url` without
   * Authorization, then read it until `uploaded` (every 500 ms, at most 60 times).
   */
  async uploadConfiguration(
    workspaceId: string,
    attributes: Record<string, unknown>,
    slug: Buffer,
  ): Promise<JsonDoc> {
    const created = await this.api('POST', `/workspaces/${workspaceId}/configuration-versions`, {
      data: { type: 'configuration-versions', attributes: { 'auto-queue-runs': false, ...attributes } },
    });
    if (created.status !== 201) throw new Error(`configuration version: ${created.status} ${created.text}`);
    const cv = created.body.data;
    const put = await this.foreignPut(cv.attributes['upload-url'], slug);
    if (put.status !== 200) throw new Error(`upload: ${put.status} ${put.text}`);
    for (let i = 0; i < 60; i++) {
      const read = await this.api('GET', `/configuration-versions/${cv.id}`);
      if (read.body.data.attributes.status === 'uploaded') return read.body.data;
      await sleep(500);
    }
    throw new Error('the configuration version never reached uploaded');
  }

  /** §5.5 step 5: `POST /runs` with the attributes go-tfe's RunCreateOptions carries for the CLI. */
  async createRun(workspaceId: string, cvId: string, attributes: Record<string, unknown>): Promise<JsonDoc> {
    const res = await this.api('POST', '/runs', {
      data: {
        type: 'runs',
        attributes: { message: 'Triggered via CLI', refresh: true, ...attributes },
        relationships: {
          'configuration-version': { data: { type: 'configuration-versions', id: cvId } },
          workspace: { data: { type: 'workspaces', id: workspaceId } },
        },
      },
    });
    if (res.status !== 201) throw new Error(`run: ${res.status} ${res.text}`);
    return res.body.data;
  }

  /**
   * §5.5 step 8, `waitForRun`: the first poll's reads while the run waits (workspace, its runs,
   * the organization's queue and capacity), then `GET /runs/:id` until the run has left
   * `pending` and `confirmed` (1 s to 3 s apart for the CLI; quicker here, bounded).
   */
  async waitForRun(workspaceId: string, runId: string): Promise<JsonDoc> {
    for (let i = 0; i < 300; i++) {
      const run = await this.api('GET', `/runs/${runId}`);
      const status = run.body.data.attributes.status as string;
      if (status !== 'pending' && status !== 'confirmed') return run.body.data;
      if (i === 0) {
        await this.readWorkspace();
        await this.api('GET', `/workspaces/${workspaceId}/runs?page%5Bnumber%5D=1&page%5Bsize%5D=100`);
        await this.api('GET', `/organizations/${this.organization}/runs/queue`);
        await this.api('GET', `/organizations/${this.organization}/capacity`);
      }
      await sleep(100);
    }
    throw new Error(`run ${runId} stayed pending`);
  }

  /**
   * §5.7: `GET /plans/:id` or `/applies/:id` for the `log-read-url`, then the Go client's read
   * loop with a 64 KiB buffer, asking the phase's status (with the token) when the reader does.
   */
  async readLog(
    kind: 'plans' | 'applies',
    phaseId: string,
  ): Promise<{ phase: JsonDoc; log: string; reader: LogReader }> {
    const phase = (await this.api('GET', `/${kind}/${phaseId}`)).body.data;
    const url = phase.attributes['log-read-url'] as string;
    const reader = new LogReader(url, async () => {
      const read = await this.api('GET', `/${kind}/${phaseId}`);
      return FINAL_PHASE.includes(read.body.data.attributes.status);
    });
    const log = (await reader.readAll(64 * 1024)).toString('utf8');
    return { phase, log, reader };
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

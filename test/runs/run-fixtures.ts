import request from 'supertest';
import { agentCall, createAgentToken, createPool, registerAgent } from '../agent-pools/helpers';
import { Actor } from '../helpers/fixtures';
import { tarGz } from '../helpers/tarball';
import { TestApp } from '../helpers/test-app';

/** A small, valid configuration archive. */
export const CONFIG_ARCHIVE = tarGz([
  { path: 'main.tf', body: 'resource "null_resource" "x" {}\n' },
  { path: 'modules/', type: 'Directory' },
  { path: 'modules/readme.md', body: 'docs\n' },
]);

export interface CreatedVersion {
  id: string;
  uploadUrl: string;
}

export async function createVersion(
  actor: Actor,
  workspaceId: string,
  attributes: Record<string, unknown> = {},
): Promise<CreatedVersion> {
  const res = await actor.api
    .post(`/api/v2/workspaces/${workspaceId}/configuration-versions`, {
      data: { type: 'configuration-versions', attributes },
    })
    .expect(201);
  return { id: res.body.data.id, uploadUrl: res.body.data.attributes['upload-url'] };
}

/** PUTs an archive to an absolute upload link through the test server, without Authorization. */
export function upload(t: TestApp, link: string, body: Buffer) {
  const url = new URL(link);
  return request(t.origin).put(url.pathname).set('Content-Type', 'application/octet-stream').send(body);
}

/** An uploaded configuration version that queued no run. */
export async function uploadedVersion(
  t: TestApp,
  actor: Actor,
  workspaceId: string,
  attributes: Record<string, unknown> = {},
): Promise<string> {
  const cv = await createVersion(actor, workspaceId, { 'auto-queue-runs': false, ...attributes });
  await upload(t, cv.uploadUrl, CONFIG_ARCHIVE).expect(200);
  return cv.id;
}

export function runBody(workspaceId: string, attributes: Record<string, unknown> = {}, cvId?: string) {
  return {
    data: {
      type: 'runs',
      attributes,
      relationships: {
        workspace: { data: { type: 'workspaces', id: workspaceId } },
        ...(cvId ? { 'configuration-version': { data: { type: 'configuration-versions', id: cvId } } } : {}),
      },
    },
  };
}

export async function createRun(
  actor: Actor,
  workspaceId: string,
  attributes: Record<string, unknown> = {},
  cvId?: string,
): Promise<{ id: string; status: string; planId: string; applyId: string }> {
  const res = await actor.api.post('/api/v2/runs', runBody(workspaceId, attributes, cvId)).expect(201);
  const data = res.body.data;
  return {
    id: data.id,
    status: data.attributes.status,
    planId: data.relationships.plan.data.id,
    applyId: data.relationships.apply.data.id,
  };
}

export async function runStatus(actor: Actor, runId: string): Promise<string> {
  const res = await actor.api.get(`/api/v2/runs/${runId}`).expect(200);
  return res.body.data.attributes.status;
}

/** A registered executor of a new organization-scoped pool, speaking the job protocol. */
export interface Executor {
  agentId: string;
  secret: string;
  claim(): request.Test;
  heartbeat(jobId: string): request.Test;
  /** Reports the job; `next` is sent as the `next` query parameter when given. */
  finish(jobId: string, body: Record<string, unknown>, next?: string): request.Test;
}

export async function executor(t: TestApp, owner: Actor, org: string, poolId?: string): Promise<Executor> {
  const pool = poolId ?? (await createPool(owner, org, `pool-${Math.random().toString(36).slice(2, 8)}`));
  const { secret } = await createAgentToken(owner, pool);
  return registeredExecutor(t, secret);
}

export async function registeredExecutor(t: TestApp, secret: string): Promise<Executor> {
  const agentId = await registerAgent(t, secret, `host-${Math.random().toString(36).slice(2, 8)}`);
  return {
    agentId,
    secret,
    claim: () => agentCall(t, '/jobs/claim', secret, agentId).send({}),
    heartbeat: (jobId) => agentCall(t, `/jobs/${jobId}/heartbeat`, secret, agentId).send({}),
    finish: (jobId, body, next) => {
      const query = next === undefined ? '' : `?next=${encodeURIComponent(next)}`;
      return agentCall(t, `/jobs/${jobId}/finish${query}`, secret, agentId).send(body);
    },
  };
}

/** Claims the next job and says which it is. */
export async function claimJob(
  ex: Executor,
): Promise<{ id: string; kind: string; runId: string; links: Record<string, string> }> {
  const res = await ex.claim().expect(200);
  const job = res.body.job;
  return { id: job.id, kind: job.kind, runId: job['run-id'], links: job.links };
}

/** How a run plans when `POST /runs` names no option: its attributes, and its job's fields alike. */
export const DEFAULT_RUN_OPTIONS_WIRE = {
  refresh: true,
  'refresh-only': false,
  'target-addrs': [],
  'replace-addrs': [],
  'allow-empty-apply': false,
  'allow-config-generation': false,
  'save-plan': false,
  'terraform-version': null,
};

/** A run's `permissions` as an organization owner reads them. */
export const OWNER_RUN_PERMISSIONS = {
  'can-apply': true,
  'can-cancel': true,
  'can-comment': true,
  'can-discard': true,
  'can-force-cancel': true,
  'can-force-execute': false,
  'can-override-policy-check': true,
};

export const PLANNED_WITH_CHANGES = {
  status: 'finished',
  'has-changes': true,
  'resource-additions': 2,
  'resource-changes': 1,
  'resource-destructions': 0,
};

/** PUTs raw bytes to a signed link of a job (logs, plan JSON, plan file). */
export function putLink(t: TestApp, link: string, body: string | Buffer) {
  return request(t.origin)
    .put(new URL(link).pathname)
    .set('Content-Type', 'application/octet-stream')
    .send(body);
}

/** A clock tests can move forward. */
export class MovableClock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

import request from 'supertest';
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

import { createHash, randomUUID } from 'node:crypto';
import request from 'supertest';
import { Actor } from '../helpers/fixtures';
import { TestApp } from '../helpers/test-app';

export const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');
export const b64 = (bytes: Buffer) => bytes.toString('base64');

export interface StateOptions {
  serial?: number;
  lineage?: string;
  outputs?: Record<string, { value: unknown; type?: unknown; sensitive?: boolean }>;
  /** Managed `null_resource` instances in the root module. */
  nulls?: number;
  /** Bytes of padding, to make a state of a given size. */
  padding?: number;
}

/** A format-4 state file as Terraform writes it. */
export function stateFile(options: StateOptions = {}): Buffer {
  const resources: unknown[] = [
    {
      mode: 'data',
      type: 'terraform_remote_state',
      name: 'other',
      provider: 'provider["terraform.io/builtin/terraform"]',
      instances: [{ schema_version: 0, attributes: { backend: 'remote' } }],
    },
  ];
  if (options.nulls) {
    resources.push({
      mode: 'managed',
      type: 'null_resource',
      name: 'random',
      provider: 'provider["registry.terraform.io/hashicorp/null"]',
      instances: Array.from({ length: options.nulls }, (_, i) => ({
        index_key: i,
        schema_version: 0,
        attributes: { id: String(1000 + i), triggers: null },
      })),
    });
  }
  const state: Record<string, unknown> = {
    version: 4,
    terraform_version: '1.9.5',
    serial: options.serial ?? 1,
    lineage: options.lineage ?? 'a1b2c3d4-0000-4000-8000-000000000001',
    outputs: options.outputs ?? {},
    resources,
    check_results: null,
  };
  if (options.padding) state.padding = 'x'.repeat(options.padding);
  return Buffer.from(`${JSON.stringify(state, null, 2)}\n`);
}

export const newLineage = () => randomUUID();

/** The create body go-tfe sends, inline or (without `state`) metadata only. */
export function createBody(
  state: Buffer,
  options: {
    serial?: number;
    lineage?: string;
    inline?: boolean;
    force?: boolean;
    json?: Buffer;
    md5?: string;
  } = {},
) {
  const parsed = parsedState(state);
  return {
    data: {
      type: 'state-versions',
      attributes: {
        serial: options.serial ?? parsed.serial,
        md5: options.md5 ?? md5(state),
        lineage: options.lineage ?? parsed.lineage,
        ...(options.inline === false ? {} : { state: b64(state) }),
        ...(options.json ? { 'json-state': b64(options.json) } : {}),
        ...(options.force ? { force: true } : {}),
      },
    },
  };
}

/** The serial and lineage inside a state; none for bytes that are not a state. */
function parsedState(state: Buffer): { serial?: number; lineage?: string } {
  try {
    return JSON.parse(state.toString()) as { serial: number; lineage: string };
  } catch {
    return {};
  }
}

export async function lock(actor: Actor, ws: string): Promise<void> {
  await actor.api.post(`/api/v2/workspaces/${ws}/actions/lock`, { reason: 'state' }).expect(200);
}

export async function unlock(actor: Actor, ws: string): Promise<void> {
  await actor.api.post(`/api/v2/workspaces/${ws}/actions/unlock`).expect(200);
}

/** Locks, writes a state inline, unlocks: the version's id. */
export async function pushState(actor: Actor, ws: string, state: Buffer, force = false): Promise<string> {
  await lock(actor, ws);
  const res = await actor.api
    .post(`/api/v2/workspaces/${ws}/state-versions`, createBody(state, { force }))
    .expect(201);
  await unlock(actor, ws);
  return res.body.data.id as string;
}

/** A PUT to an absolute upload link, as go-tfe's foreign PUT sends it: no Authorization header. */
export function foreignPut(t: TestApp, link: string, body: Buffer) {
  const url = new URL(link);
  expect(url.origin).toBe(t.origin);
  return request(t.origin)
    .put(url.pathname)
    .set('Content-Type', 'application/octet-stream')
    .set('Accept', 'application/json, */*')
    .set('User-Agent', 'go-tfe')
    .send(body);
}

/** A download as go-tfe's StateVersions.Download makes it: bearer token, Accept application/json. */
export function download(t: TestApp, actor: Actor, path: string) {
  return request(t.origin)
    .get(path)
    .set('Authorization', `Bearer ${actor.token}`)
    .set('Accept', 'application/json')
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
}

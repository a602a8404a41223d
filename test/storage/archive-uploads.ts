import request from 'supertest';
import { ISO_OFFSET, Actor, createWorkspace, unique } from '../helpers/fixtures';
import { createPolicySet } from '../policy-sets/policy-fixtures';
import { createModule, createModuleVersion, moduleBase, moduleProvider } from '../registry/module-helpers';

/** One resource waiting for its archive: its id, its upload link, and how to read it back. */
export interface ArchiveTarget {
  id: string;
  upload: string;
  /** The resource's attributes as a GET shows them now. */
  attributes(): Promise<Record<string, unknown>>;
}

/** The three kinds of archive upload and what each says about an archive it refused or is waiting for. */
export interface UploadKind {
  name: string;
  create(actor: Actor, org: string): Promise<ArchiveTarget>;
  /** The attributes of a resource whose archive was refused for `reason`. */
  refused(reason: string): Record<string, unknown>;
  /** The status of a resource whose link can take an archive again. */
  waiting: string;
  /** The status of a resource whose archive was taken. */
  accepted: string;
}

export const UPLOAD_KINDS: UploadKind[] = [
  {
    name: 'policy set versions',
    create: async (actor, org) => {
      const set = await createPolicySet(actor, org);
      const created = await actor.api.post(`/api/v2/policy-sets/${set.id}/versions`).expect(201);
      const id = created.body.data.id as string;
      return {
        id,
        upload: created.body.data.links.upload as string,
        attributes: async () =>
          (await actor.api.get(`/api/v2/policy-set-versions/${id}`).expect(200)).body.data.attributes,
      };
    },
    refused: (reason) => ({
      source: 'tfe-api',
      status: 'errored',
      error: reason,
      'status-timestamps': {
        'ingressing-at': expect.stringMatching(ISO_OFFSET),
        'errored-at': expect.stringMatching(ISO_OFFSET),
      },
      'created-at': expect.any(String),
      'updated-at': expect.any(String),
    }),
    waiting: 'pending',
    accepted: 'ready',
  },
  {
    name: 'configuration versions',
    create: async (actor, org) => {
      const workspace = await createWorkspace(actor, org);
      const created = await actor.api
        .post(`/api/v2/workspaces/${workspace}/configuration-versions`, {
          data: { type: 'configuration-versions', attributes: { 'auto-queue-runs': false } },
        })
        .expect(201);
      const id = created.body.data.id as string;
      return {
        id,
        upload: created.body.data.attributes['upload-url'] as string,
        attributes: async () =>
          (await actor.api.get(`/api/v2/configuration-versions/${id}`).expect(200)).body.data.attributes,
      };
    },
    refused: (reason) => ({
      'auto-queue-runs': false,
      speculative: false,
      provisional: false,
      source: 'tfe-api',
      status: 'errored',
      error: 'invalid-archive',
      'error-message': reason,
      'status-timestamps': {
        'queued-at': expect.stringMatching(ISO_OFFSET),
        'errored-at': expect.stringMatching(ISO_OFFSET),
      },
    }),
    waiting: 'pending',
    accepted: 'uploaded',
  },
  {
    name: 'module versions',
    create: async (actor, org) => {
      const name = unique('mod');
      const provider = moduleProvider();
      await createModule(actor, org, name, provider);
      const base = moduleBase(org, name, provider);
      const version = await createModuleVersion(actor, base, '1.0.0');
      return {
        id: version.id,
        upload: version.upload,
        attributes: async () =>
          (await actor.api.get(`${base}/version?module_version=1.0.0`).expect(200)).body.data.attributes,
      };
    },
    refused: (reason) => ({
      version: '1.0.0',
      status: 'reg_ingress_failed',
      source: 'tfe-api',
      error: reason,
      'created-at': expect.any(String),
      'updated-at': expect.any(String),
    }),
    waiting: 'pending',
    accepted: 'ok',
  },
];

/** PUTs raw bytes to an absolute signed link through the app that signed it, without a token. */
export function putArchive(link: string, body: Buffer): request.Test {
  const url = new URL(link);
  return request(url.origin).put(url.pathname).set('Content-Type', 'application/octet-stream').send(body);
}

/** The 422 of a refused archive, as every upload kind answers it. */
export const refusalDocument = (reason: string) => ({
  errors: [{ status: '422', title: 'invalid attribute', detail: `The archive was refused: ${reason}` }],
});

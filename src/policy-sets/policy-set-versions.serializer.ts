import { ResourceObject, toOne } from '../common/jsonapi/document';
import { enumOf, nullableStr, ResourceDoc, str, timestamp } from '../common/jsonapi/openapi';
import { isoMillis, isoSecondsOffset } from '../common/jsonapi/timestamps';
import { PolicySetVersionEntity, VERSION_STATUSES } from './entities/policy-set-version.entity';

const OFFSET_TIMESTAMP = { type: 'string', example: '2019-06-21T21:29:48+00:00' } as const;

export const POLICY_SET_VERSION_DOC: ResourceDoc = {
  type: 'policy-set-versions',
  attributes: {
    source: str("`tfe-api` for versions created through the API (the real service's marker)"),
    status: enumOf(VERSION_STATUSES),
    'status-timestamps': {
      type: 'object',
      description: 'Empty while pending',
      properties: {
        'ingressing-at': OFFSET_TIMESTAMP,
        'ready-at': OFFSET_TIMESTAMP,
        'errored-at': OFFSET_TIMESTAMP,
      },
    },
    error: nullableStr('Why the uploaded archive was refused'),
    'created-at': timestamp(),
    'updated-at': timestamp(),
  },
  relationships: { 'policy-set': { type: 'policy-sets' } },
  links: ['self', 'upload'],
};

export function policySetVersionPath(id: string): string {
  return `/api/v2/policy-set-versions/${id}`;
}

function statusTimestamps(v: PolicySetVersionEntity): Record<string, string> {
  const out: Record<string, string> = {};
  const entries: [string, Date | null][] = [
    ['ingressing-at', v.ingressingAt],
    ['ready-at', v.readyAt],
    ['errored-at', v.erroredAt],
  ];
  for (const [key, at] of entries) {
    const text = isoSecondsOffset(at);
    if (text) out[key] = text;
  }
  return out;
}

/** `uploadUrl` is the absolute signed link, given while the version still waits for its archive. */
export function serializePolicySetVersion(v: PolicySetVersionEntity, uploadUrl?: string): ResourceObject {
  const links: Record<string, string> = { self: policySetVersionPath(v.id) };
  if (uploadUrl) links.upload = uploadUrl;
  return {
    id: v.id,
    type: 'policy-set-versions',
    attributes: {
      source: v.source,
      status: v.status,
      'status-timestamps': statusTimestamps(v),
      error: v.error,
      'created-at': isoMillis(v.createdAt),
      'updated-at': isoMillis(v.updatedAt),
    },
    relationships: { 'policy-set': toOne('policy-sets', v.policySetId) },
    links,
  };
}

import { ResourceObject } from '../common/jsonapi/document';
import { bool, enumOf, nullableStr, ResourceDoc, str } from '../common/jsonapi/openapi';
import { isoSecondsOffset } from '../common/jsonapi/timestamps';
import {
  CONFIGURATION_VERSION_STATUSES,
  ConfigurationVersionEntity,
} from './entities/configuration-version.entity';

const OFFSET_TIMESTAMP = { type: 'string', example: '2019-06-21T21:29:48+00:00' } as const;

export const CONFIGURATION_VERSION_DOC: ResourceDoc = {
  optional: ['upload-url'],
  type: 'configuration-versions',
  attributes: {
    'auto-queue-runs': bool('Queue a run as soon as the archive is uploaded (default true)'),
    speculative: bool('Runs of this version only plan (default false)'),
    provisional: bool(
      "Not the workspace's configuration until a run of it applies (default false): runs that name no " +
        'version skip it; applying a run of it clears the flag',
    ),
    source: str('`tfe-api`'),
    status: enumOf(CONFIGURATION_VERSION_STATUSES),
    error: nullableStr('`invalid-archive` when the archive was refused'),
    'error-message': nullableStr('Why the archive was refused'),
    'status-timestamps': {
      type: 'object',
      properties: {
        'queued-at': OFFSET_TIMESTAMP,
        'finished-at': OFFSET_TIMESTAMP,
        'errored-at': OFFSET_TIMESTAMP,
      },
    },
    'upload-url': str(
      'Only in the create answer: absolute URL, valid for one hour, taking one PUT of a tar.gz without Authorization',
    ),
  },
  links: ['self', 'download'],
};

export const configurationVersionPath = (id: string) => `/api/v2/configuration-versions/${id}`;

/** `uploadUrl` only in the create answer, as the real service shows it. */
export function serializeConfigurationVersion(
  cv: ConfigurationVersionEntity,
  uploadUrl?: string,
): ResourceObject {
  const timestamps: Record<string, string | null> = {
    'queued-at': isoSecondsOffset(cv.createdAt),
    'finished-at': isoSecondsOffset(cv.uploadedAt),
    'errored-at': isoSecondsOffset(cv.erroredAt),
  };
  return {
    id: cv.id,
    type: 'configuration-versions',
    attributes: {
      'auto-queue-runs': cv.autoQueueRuns,
      speculative: cv.speculative,
      provisional: cv.provisional,
      source: 'tfe-api',
      status: cv.status,
      error: cv.status === 'errored' ? 'invalid-archive' : null,
      'error-message': cv.errorMessage,
      'status-timestamps': Object.fromEntries(Object.entries(timestamps).filter(([, v]) => v !== null)),
      ...(uploadUrl ? { 'upload-url': uploadUrl } : {}),
    },
    links: { self: configurationVersionPath(cv.id), download: `${configurationVersionPath(cv.id)}/download` },
  };
}

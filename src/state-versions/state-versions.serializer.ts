import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ResourceObject, toMany, toOne } from '../common/jsonapi/document';
import { bool, enumOf, int, nullableStr, ResourceDoc, str, timestamp } from '../common/jsonapi/openapi';
import { isoMillis } from '../common/jsonapi/timestamps';
import { StateVersionOutputEntity } from './entities/state-version-output.entity';
import { STATE_VERSION_STATUSES, StateVersionEntity } from './entities/state-version.entity';
import type { JsonValue } from './state-file';

const nullableInt = (description?: string): SchemaObject => ({
  type: 'integer',
  nullable: true,
  description,
});
const counts: SchemaObject = {
  type: 'object',
  additionalProperties: { type: 'object', additionalProperties: { type: 'integer' } },
};
const anyJson = (description: string): SchemaObject => ({ description });

export const STATE_VERSION_DOC: ResourceDoc = {
  type: 'state-versions',
  attributes: {
    'created-at': timestamp(),
    serial: int('Grows with every state written to the workspace'),
    status: enumOf(
      STATE_VERSION_STATUSES,
      'pending until its state arrives; discarded if a newer version came first',
    ),
    size: nullableInt('Bytes of the raw state; null while pending'),
    'hosted-state-download-url': nullableStr(
      'Where the raw state is downloaded, with the bearer token (a path under the API); null while pending',
    ),
    'hosted-json-state-download-url': nullableStr('Where the JSON state is downloaded, once one was given'),
    'hosted-state-upload-url': nullableStr(
      'One-time link the raw state is PUT to, without an Authorization header; shown while pending, ' +
        'to callers who may write state',
    ),
    'hosted-json-state-upload-url': nullableStr(
      'One-time link the JSON state (`terraform show -json`) is PUT to; shown as the state link is',
    ),
    intermediate: bool('Always false: every finalized version becomes current'),
    'resources-processed': bool('Whether resources, modules, providers and outputs were read from the state'),
    resources: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: str(),
          type: str('The resource type, `data.` in front for a data source'),
          count: int('Instances'),
          module: str('`root` or a module address'),
          provider: str(),
        },
      },
    },
    modules: { ...counts, description: 'Per module, resource counts by type' },
    providers: { ...counts, description: 'Per provider, resource counts by type' },
    'state-version': nullableInt('The format of the state file'),
    'terraform-version': nullableStr('The version of the tool that wrote the state'),
    'vcs-commit-sha': nullableStr('Always null: configurations are uploaded, not read from VCS'),
    'vcs-commit-url': nullableStr('Always null'),
  },
  relationships: {
    workspace: { type: 'workspaces' },
    run: { type: 'runs' },
    'created-by': { type: 'users' },
    outputs: { type: 'state-version-outputs', many: true },
    'rollback-state-version': { type: 'state-versions' },
  },
  links: ['self'],
};

export const STATE_VERSION_OUTPUT_DOC: ResourceDoc = {
  type: 'state-version-outputs',
  attributes: {
    name: str(),
    sensitive: bool(),
    type: enumOf(['string', 'number', 'boolean', 'array', 'object', 'null'], 'The JSON type of the value'),
    'detailed-type': anyJson('The type as the tool writes it: `"string"`, `["list","string"]`, …'),
    value: anyJson('The value; null for a sensitive output on the current-outputs route'),
  },
  links: ['self'],
};

export const stateVersionPath = (id: string) => `/api/v2/state-versions/${id}`;

/** What a state version's resource carries besides its row. */
export interface StateVersionExtras {
  outputIds: string[];
  stateUploadUrl: string | null;
  jsonStateUploadUrl: string | null;
}

export function serializeStateVersion(sv: StateVersionEntity, extras: StateVersionExtras): ResourceObject {
  const path = stateVersionPath(sv.id);
  return {
    id: sv.id,
    type: 'state-versions',
    attributes: {
      'created-at': isoMillis(sv.createdAt),
      serial: sv.serial,
      status: sv.status,
      size: sv.size,
      'hosted-state-download-url': sv.stateBlobKey ? `${path}/download` : null,
      'hosted-json-state-download-url': sv.jsonStateBlobKey ? `${path}/json-download` : null,
      'hosted-state-upload-url': extras.stateUploadUrl,
      'hosted-json-state-upload-url': extras.jsonStateUploadUrl,
      intermediate: false,
      'resources-processed': sv.resourcesProcessed,
      resources: sv.resources ?? [],
      modules: sv.modules ?? {},
      providers: sv.providers ?? {},
      'state-version': sv.stateFormat,
      'terraform-version': sv.terraformVersion,
      'vcs-commit-sha': null,
      'vcs-commit-url': null,
    },
    relationships: {
      workspace: toOne('workspaces', sv.workspaceId),
      run: toOne('runs', sv.runId),
      'created-by': toOne('users', sv.createdById),
      outputs: toMany('state-version-outputs', extras.outputIds),
      'rollback-state-version': toOne('state-versions', sv.rollbackOfId),
    },
    links: { self: path },
  };
}

/** `value` is the opened value, or null where it is withheld (a sensitive one on current outputs). */
export function serializeStateVersionOutput(o: StateVersionOutputEntity, value: JsonValue): ResourceObject {
  return {
    id: o.id,
    type: 'state-version-outputs',
    attributes: {
      name: o.name,
      sensitive: o.sensitive,
      type: o.type,
      'detailed-type': o.detailedType,
      value,
    },
    links: { self: `/api/v2/state-version-outputs/${o.id}` },
  };
}

/**
 * A current output as the real service includes it on a workspace (`include=outputs`): the
 * `workspace-outputs` type, its type under `output-type`; `value` null where it is withheld.
 */
export function serializeWorkspaceOutput(o: StateVersionOutputEntity, value: JsonValue): ResourceObject {
  return {
    id: o.id,
    type: 'workspace-outputs',
    attributes: { name: o.name, sensitive: o.sensitive, 'output-type': o.type, value },
    links: { self: `/api/v2/state-version-outputs/${o.id}` },
  };
}

import { ResourceObject, toOne } from '../common/jsonapi/document';
import { bool, enumOf, int, nullableStr, ResourceDoc, str, timestamp } from '../common/jsonapi/openapi';
import { isoMillis } from '../common/jsonapi/timestamps';
import { organizationLinkage } from '../organizations/organizations.serializer';
import {
  TAG_BINDING_RELATIONSHIP_DOCS,
  tagBindingRelationships,
} from '../tag-bindings/tag-bindings.relationships';
import { WorkspaceAccessLevel } from '../common/auth/principal';
import { EXECUTION_MODES, WorkspaceEntity } from './entities/workspace.entity';

export const WORKSPACE_DOC: ResourceDoc = {
  type: 'workspaces',
  attributes: {
    name: str('Unique in the organization: letters, numbers, - and _'),
    description: nullableStr(),
    'engine-version': str('`latest` or a version of the engine catalog'),
    'terraform-version': str(
      "The same as `engine-version`, under the real service's name (accepted on create and update too)",
    ),
    locked: bool('A locked workspace starts no queued run until it is unlocked'),
    'execution-mode': enumOf(
      EXECUTION_MODES,
      'agent: jobs go to the agent-pool; remote: to the default executors',
    ),
    'auto-apply': bool('Runs apply once planned, without confirmation'),
    'auto-apply-run-trigger': bool('Runs queued by a run trigger apply on their own'),
    'resource-count': int('Managed resource instances in the current state version (0 without state)'),
    'structured-run-output-enabled': bool(
      'Always false: runs keep the tool’s own log, which the CLI prints as it is (no JSON plan rendering)',
    ),
    'vcs-repo': {
      type: 'object',
      nullable: true,
      description:
        'Always null: workspaces take configuration versions uploaded through the API (the CLI, scripts)',
    },
    'working-directory': nullableStr(
      'Always null: runs start at the root of the uploaded configuration (the CLI then uploads its own directory)',
    ),
    permissions: {
      type: 'object',
      properties: {
        'can-update': bool(),
        'can-destroy': bool(),
        'can-queue-run': bool('Queue plans (plan, write or admin); the CLI plans only with this'),
        'can-queue-apply': bool(
          'Confirm runs for apply (write or admin); the CLI applies with this or can-update',
        ),
        'can-read-runs': bool(),
        'can-read-state-versions': bool('Read state versions and download state (any access)'),
        'can-read-state-outputs': bool('Read the outputs of state versions (any access)'),
        'can-create-state-versions': bool('Write state while holding the lock (write or admin)'),
        'can-lock': bool(),
        'can-unlock': bool(),
        'can-force-unlock': bool('Unlock whoever holds the lock (admin)'),
        'can-force-delete': bool('Delete the workspace even while its state manages resources (admin)'),
        'can-read-variable': bool('Read its variables (any access)'),
        'can-update-variable': bool('Create, change and delete its variables (write or admin)'),
      },
    },
    'created-at': timestamp(),
    'updated-at': timestamp(),
  },
  relationships: {
    organization: { type: 'organizations' },
    project: { type: 'projects' },
    'locked-by': { type: ['users', 'teams', 'organizations', 'runs'] },
    'current-state-version': { type: 'state-versions' },
    'agent-pool': { type: 'agent-pools' },
    'current-run': { type: 'runs' },
    'current-configuration-version': { type: 'configuration-versions' },
    outputs: { type: 'workspace-outputs', many: true },
    ...TAG_BINDING_RELATIONSHIP_DOCS,
  },
  includePaths: {
    'current-run.plan': 'plans',
    'current-run.configuration-version': 'configuration-versions',
  },
  links: ['self'],
};

/** The current state version's outputs as `include=outputs` shows them (only then is `outputs` linked). */
export const WORKSPACE_OUTPUT_DOC: ResourceDoc = {
  type: 'workspace-outputs',
  attributes: {
    name: str(),
    sensitive: bool(),
    'output-type': str("The output's type, as the state gives it (`string`, `number`, `object`, …)"),
    value: { description: "The output's value; null when it is sensitive" },
  },
  links: ['self'],
};

export function workspacePath(id: string): string {
  return `/api/v2/workspaces/${id}`;
}

export function serializeWorkspace(
  ws: WorkspaceEntity,
  organizationName: string,
  level: WorkspaceAccessLevel | null,
  currentRunId: string | null = null,
  writesState = true,
): ResourceObject {
  const admin = level === 'admin';
  const write = level === 'write' || admin;
  const plan = level === 'plan' || write;
  return {
    id: ws.id,
    type: 'workspaces',
    attributes: {
      name: ws.name,
      description: ws.description,
      'engine-version': ws.engineVersion,
      'terraform-version': ws.engineVersion,
      locked: ws.locked,
      'execution-mode': ws.executionMode,
      'auto-apply': ws.autoApply,
      'auto-apply-run-trigger': ws.autoApplyRunTrigger,
      'resource-count': ws.resourceCount,
      'structured-run-output-enabled': false,
      'vcs-repo': null,
      'working-directory': null,
      permissions: {
        'can-update': admin,
        'can-destroy': admin,
        'can-queue-run': plan,
        'can-queue-apply': write,
        'can-read-runs': level !== null,
        'can-read-state-versions': level !== null,
        'can-read-state-outputs': level !== null,
        'can-create-state-versions': write && writesState,
        'can-lock': write,
        'can-unlock': write,
        'can-force-unlock': admin,
        'can-force-delete': admin,
        'can-read-variable': level !== null,
        'can-update-variable': write,
      },
      'created-at': isoMillis(ws.createdAt),
      'updated-at': isoMillis(ws.updatedAt),
    },
    relationships: {
      organization: organizationLinkage(organizationName),
      project: toOne('projects', ws.projectId),
      'locked-by': ws.lockedByType ? toOne(ws.lockedByType, ws.lockedById) : { data: null },
      'current-state-version': toOne('state-versions', ws.currentStateVersionId),
      'agent-pool': toOne('agent-pools', ws.agentPoolId),
      'current-run': toOne('runs', currentRunId),
      ...tagBindingRelationships(workspacePath(ws.id)),
    },
    links: { self: workspacePath(ws.id) },
  };
}

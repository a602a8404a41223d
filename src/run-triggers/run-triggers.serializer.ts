import { ResourceObject, toOne } from '../common/jsonapi/document';
import { ResourceDoc, str, timestamp } from '../common/jsonapi/openapi';
import { isoMillis } from '../common/jsonapi/timestamps';
import { RunTriggerView } from './run-triggers.repository';

export const RUN_TRIGGER_DOC: ResourceDoc = {
  type: 'run-triggers',
  attributes: {
    'workspace-name': str('Name of the destination workspace (where runs are queued)'),
    'sourceable-name': str('Name of the source workspace (whose runs trigger the destination)'),
    'created-at': timestamp(),
  },
  relationships: { workspace: { type: 'workspaces' }, sourceable: { type: 'workspaces' } },
  links: ['self'],
};

export function runTriggerPath(id: string): string {
  return `/api/v2/run-triggers/${id}`;
}

export function serializeRunTrigger(view: RunTriggerView): ResourceObject {
  const { trigger, workspace, sourceable } = view;
  return {
    id: trigger.id,
    type: 'run-triggers',
    attributes: {
      'workspace-name': workspace.name,
      'sourceable-name': sourceable.name,
      'created-at': isoMillis(trigger.createdAt),
    },
    relationships: {
      workspace: toOne('workspaces', workspace.id),
      sourceable: toOne('workspaces', sourceable.id),
    },
    links: { self: runTriggerPath(trigger.id) },
  };
}

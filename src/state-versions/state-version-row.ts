import { StateVersionEntity } from './entities/state-version.entity';

/** A new version's row before its state arrives (finalize fills in the rest). */
export function pendingVersion(
  fields: Pick<
    StateVersionEntity,
    'id' | 'workspaceId' | 'serial' | 'lineage' | 'md5' | 'runId' | 'createdById' | 'createdAt'
  > &
    Partial<Pick<StateVersionEntity, 'jsonStateBlobKey' | 'jsonStateDataKey' | 'jsonStateSize'>>,
): StateVersionEntity {
  return Object.assign(new StateVersionEntity(), {
    status: 'pending',
    rollbackOfId: null,
    stateBlobKey: null,
    stateDataKey: null,
    size: null,
    jsonStateBlobKey: null,
    jsonStateDataKey: null,
    jsonStateSize: null,
    stateFormat: null,
    terraformVersion: null,
    resources: null,
    modules: null,
    providers: null,
    resourceCount: 0,
    resourcesProcessed: false,
    ...fields,
    updatedAt: fields.createdAt,
  } satisfies StateVersionEntity);
}

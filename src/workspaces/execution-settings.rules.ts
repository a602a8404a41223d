import { invalid } from '../common/errors/domain-error';
import { ParsedBody } from '../common/jsonapi/body';
import { ExecutionSettingsAttributes } from './dto/workspace-attributes.dto';
import { ExecutionMode, WorkspaceEntity } from './entities/workspace.entity';

export interface ExecutionTarget {
  mode: ExecutionMode;
  poolId: string | null;
}

/** What a request asked for: `undefined` leaves a setting as it is, a null pool clears it. */
export interface ExecutionRequest {
  mode?: ExecutionMode;
  poolId?: string | null;
}

export type ExecutionRuleFailure = 'pool-required' | 'pool-forbidden';

/**
 * The execution mode and pool after a change. A pool goes with `agent` and only with it: switching
 * to `agent` needs one (unless the workspace already had one), naming one with another mode is
 * refused, and leaving `agent` drops the pool.
 */
export function nextExecution(
  current: ExecutionTarget,
  requested: ExecutionRequest,
): ExecutionTarget | ExecutionRuleFailure {
  const mode = requested.mode ?? current.mode;
  if (mode !== 'agent') return requested.poolId ? 'pool-forbidden' : { mode, poolId: null };
  const poolId = requested.poolId !== undefined ? requested.poolId : current.poolId;
  return poolId ? { mode, poolId } : 'pool-required';
}

/** Where a request's agent pool is pointed at in its errors. */
export const AGENT_POOL = '/data/relationships/agent-pool';

/** Execution mode, pool and auto-apply settings of the request, checked against each other. */
export function applyExecution(ws: WorkspaceEntity, body: ParsedBody<ExecutionSettingsAttributes>): void {
  const attrs = body.attributes;
  const next = nextExecution(
    { mode: ws.executionMode, poolId: ws.agentPoolId },
    { mode: attrs['execution-mode'], poolId: requestedPool(body) },
  );
  if (next === 'pool-required') {
    throw invalid('Agent pool is required when the execution mode is agent', AGENT_POOL);
  }
  if (next === 'pool-forbidden') {
    throw invalid('Agent pool can only be set when the execution mode is agent', AGENT_POOL);
  }
  ws.executionMode = next.mode;
  ws.agentPoolId = next.poolId;
  if (attrs['auto-apply'] !== undefined) ws.autoApply = attrs['auto-apply'];
  if (attrs['auto-apply-run-trigger'] !== undefined) ws.autoApplyRunTrigger = attrs['auto-apply-run-trigger'];
}

/** The pool named by the `agent-pool` relationship or go-tfe's `agent-pool-id`; they must agree. */
function requestedPool(body: ParsedBody<ExecutionSettingsAttributes>): ExecutionRequest['poolId'] {
  const ref = body.toOne('agent-pool', 'agent-pools');
  const fromRelationship = ref === undefined ? undefined : (ref?.id ?? null);
  const fromAttribute = body.has('agent-pool-id') ? (body.attributes['agent-pool-id'] ?? null) : undefined;
  if (fromRelationship !== undefined && fromAttribute !== undefined && fromRelationship !== fromAttribute) {
    throw invalid('Agent pool id and the agent-pool relationship name different pools', AGENT_POOL);
  }
  return fromRelationship !== undefined ? fromRelationship : fromAttribute;
}

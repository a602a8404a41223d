import { ExecutionMode } from './entities/workspace.entity';

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

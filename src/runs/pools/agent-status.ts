import { StoredAgentStatus } from './entities/agent.entity';
import { UNKNOWN_AFTER_MS } from '../protocol/agent-context';

export type AgentStatus = StoredAgentStatus | 'unknown';

export const AGENT_STATUSES: readonly AgentStatus[] = ['idle', 'busy', 'unknown', 'errored', 'exited'];

/** An agent that should be calling in (idle or busy) but has not for a while is `unknown`. */
export function agentStatus(stored: StoredAgentStatus, lastPingAt: Date, now: number): AgentStatus {
  if ((stored === 'idle' || stored === 'busy') && now - lastPingAt.getTime() > UNKNOWN_AFTER_MS) {
    return 'unknown';
  }
  return stored;
}

/** When `agentStatus` turns `unknown` by itself if the agent stays silent; null: it does not. */
export function agentStatusChangesAt(stored: StoredAgentStatus, lastPingAt: Date, now: number): Date | null {
  if (stored !== 'idle' && stored !== 'busy') return null;
  const at = lastPingAt.getTime() + UNKNOWN_AFTER_MS + 1;
  return at > now ? new Date(at) : null;
}

/** Only agents that are gone, or may be, can be removed from the list. */
export function isRemovable(status: AgentStatus): boolean {
  return status === 'unknown' || status === 'errored' || status === 'exited';
}

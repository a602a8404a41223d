import { StoredAgentStatus } from './entities/agent.entity';
import { UNKNOWN_AFTER_MS } from '../protocol/agent-context';

export type AgentStatus = 'idle' | 'busy' | 'unknown' | 'errored' | 'exited';

export const AGENT_STATUSES: readonly AgentStatus[] = ['idle', 'busy', 'unknown', 'errored', 'exited'];

/** An agent the row says takes work (`idle`; `busy` in rows written before busy was derived). */
function takesWork(stored: StoredAgentStatus): boolean {
  return stored === 'idle' || stored === 'busy';
}

/**
 * An agent that takes work is `busy` while it holds a job (`working`) and `idle` otherwise; one
 * that has not called in for a while is `unknown` either way.
 */
export function agentStatus(stored: StoredAgentStatus, lastPingAt: Date, now: number, working: boolean): AgentStatus {
  if (!takesWork(stored)) return stored;
  if (now - lastPingAt.getTime() > UNKNOWN_AFTER_MS) return 'unknown';
  return working ? 'busy' : 'idle';
}

/** When `agentStatus` turns `unknown` by itself if the agent stays silent; null: it does not. */
export function agentStatusChangesAt(stored: StoredAgentStatus, lastPingAt: Date, now: number): Date | null {
  if (!takesWork(stored)) return null;
  const at = lastPingAt.getTime() + UNKNOWN_AFTER_MS + 1;
  return at > now ? new Date(at) : null;
}

/** Only agents that are gone, or may be, can be removed from the list. */
export function isRemovable(status: AgentStatus): boolean {
  return status === 'unknown' || status === 'errored' || status === 'exited';
}

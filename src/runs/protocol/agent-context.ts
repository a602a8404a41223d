/** The agent token a request presented, as the agent routes see it. */
export interface AgentTokenContext {
  tokenId: string;
  poolId: string;
  organizationId: string;
  organizationScoped: boolean;
}

/** The executor calling an agent route: its token, pool and organization (see AgentTokenStrategy). */
export interface AgentContext extends AgentTokenContext {
  agentId: string;
  /** The name it registered with (agents are never renamed), for the audit trail. */
  agentName: string;
}

/** Seconds an executor waits between two claims that found no work (told at registration). */
export const POLL_INTERVAL_SECONDS = 1;

/** Seconds between two heartbeats of a running job (told at registration and with each job). */
export const HEARTBEAT_INTERVAL_SECONDS = 10;

/** How often one process writes an agent's `last-ping-at` and its token's `last-used-at`, at most. */
export const PING_REFRESH_MS = 10_000;

/** An idle or busy agent not seen for this long reads as `unknown`. */
export const UNKNOWN_AFTER_MS = 60_000;

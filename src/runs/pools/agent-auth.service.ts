import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AuthCache } from '../../common/auth/auth-cache';
import { tokenDigest } from '../../common/auth/token-secret';
import { ChangeEpoch } from '../../common/cache/change-epoch';
import { DomainError } from '../../common/errors/domain-error';
import { AgentContext, AgentTokenContext, PING_REFRESH_MS } from '../protocol/agent-context';
import { AgentTokensRepository } from './agent-tokens.repository';
import { AgentActivityRepository } from './agent-activity.repository';

/** Past this many remembered write times, the oldest are dropped (they only spare writes). */
const MAX_REMEMBERED = 10_000;

function unauthorized(detail: string): DomainError {
  return new DomainError('unauthorized', [{ detail }]);
}

/**
 * Authenticates executors. Token and agent lookups go through the AuthCache: revoking a token or
 * removing an agent advances the access epoch, which every request here syncs with first (agent
 * routes are public for the user guard, so ChangeEpochGuard does not sync them), so a revoked
 * token is refused on every node once the revocation has been answered. Idle executors poll often:
 * a warm poll costs the shared epoch read and no other query.
 */
@Injectable()
export class AgentAuthService {
  /** When this process last wrote each agent's ping and each token's use. */
  private readonly written = new Map<string, number>();

  constructor(
    private readonly tokens: AgentTokensRepository,
    private readonly agents: AgentActivityRepository,
    private readonly cache: AuthCache,
    private readonly epoch: ChangeEpoch,
  ) {}

  async authenticate(req: Request, secret: string): Promise<AgentTokenContext> {
    if (this.epoch.enabled) await this.epoch.syncFor(req);
    const key = `agent-token:${tokenDigest(secret)}`;
    // Unknown secrets are not remembered: guessing must not push real tokens out of the cache.
    const context = await this.cache.getPresent(key, () => this.tokens.contextByDigest(key.slice(12)));
    if (!context) throw unauthorized('invalid agent token');
    return { ...context };
  }

  /** The agent named by the request, which must belong to the token's pool. */
  async agent(token: AgentTokenContext, agentId: string): Promise<AgentContext> {
    const key = `agent:${agentId}`;
    const identity = await this.cache.getPresent(key, () => this.agents.identityOf(agentId));
    if (identity?.poolId !== token.poolId) {
      throw unauthorized('X-Plinth-Agent does not name an agent of this pool');
    }
    return { ...token, agentId, agentName: identity.name };
  }

  /**
   * Records that the agent called in. Written at most every PING_REFRESH_MS per agent and process,
   * so a poll that finds no work writes nothing.
   */
  async noteActivity(agent: { agentId?: string; tokenId: string }, now = Date.now()): Promise<void> {
    const at = new Date(now);
    if (agent.agentId && this.due(`agent:${agent.agentId}`, now)) await this.agents.touch(agent.agentId, at);
    if (this.due(`token:${agent.tokenId}`, now)) await this.tokens.touch(agent.tokenId, at);
  }

  /** A registration counts as a ping just written. */
  noteWritten(agentId: string, now = Date.now()): void {
    this.written.set(`agent:${agentId}`, now);
  }

  private due(key: string, now: number): boolean {
    const last = this.written.get(key);
    if (last !== undefined && now - last < PING_REFRESH_MS) return false;
    if (this.written.size >= MAX_REMEMBERED) this.written.clear();
    this.written.set(key, now);
    return true;
  }
}

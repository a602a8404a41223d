import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { AuthStrategies } from '../../common/auth/auth-strategies';
import { RequestStrategy } from '../../common/auth/request-strategy';
import { DomainError } from '../../common/errors/domain-error';
import { AgentContext, AgentTokenContext } from './agent-context';
import { AgentAuthService } from '../pools/agent-auth.service';
import type { AgentRequest } from './current-agent.decorator';

export const AGENT_HEADER = 'x-plinth-agent';

/**
 * The executor routes' passport strategy (`agent-token`, an Endpoint's `agent` and
 * `agent-registration` kinds): `Authorization: Bearer <agent token>` and, except for registration,
 * `X-Plinth-Agent: <agent id>` naming an agent of the token's pool. User, team and organization
 * tokens are not agent tokens (401), and agent tokens are not in the user token table, so they
 * open no user route either. Registration yields the token (`req.agentToken`), every other route
 * the agent (`req.agent`).
 */
@Injectable()
export class AgentTokenStrategy extends PassportStrategy(RequestStrategy, 'agent-token') {
  constructor(
    private readonly auth: AgentAuthService,
    strategies: AuthStrategies,
  ) {
    super();
    strategies.use('agent-token', this);
  }

  async validate(
    req: AgentRequest,
    options: { registering?: boolean },
  ): Promise<AgentContext | AgentTokenContext> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    if (!match) throw new DomainError('unauthorized', [{ detail: 'an agent token is required' }]);
    const token = await this.auth.authenticate(req, match[1]);
    if (options.registering) {
      await this.auth.noteActivity(token);
      return token;
    }
    const agentId = req.headers[AGENT_HEADER];
    if (typeof agentId !== 'string' || agentId === '') {
      throw new DomainError('unauthorized', [{ detail: 'X-Plinth-Agent header is required' }]);
    }
    const agent = await this.auth.agent(token, agentId);
    await this.auth.noteActivity(agent);
    return agent;
  }
}

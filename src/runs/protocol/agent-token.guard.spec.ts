import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { tokenDigest } from '../../common/auth/token-secret';
import { standingEpoch } from '../../common/cache/change-epoch';
import { TtlMemo } from '../../common/cache/ttl-memo';
import { RateLimitService } from '../../common/rate-limit/rate-limit.service';
import { AgentTokenContext, PING_REFRESH_MS } from './agent-context';
import { AgentAuthService } from '../pools/agent-auth.service';
import { AgentRequest, AgentTokenGuard, RegistersAgent } from './agent-token.guard';
import { AgentTokensRepository } from '../pools/agent-tokens.repository';
import { AgentsRepository } from '../pools/agents.repository';

const TOKEN: AgentTokenContext = {
  tokenId: 'at-1',
  poolId: 'apool-1',
  organizationId: 'org-1',
  organizationScoped: true,
};

class Handlers {
  @RegistersAgent()
  register(): void {}

  claim(): void {}
}

describe('AgentTokenGuard', () => {
  let tokenLookups: number;
  let touches: string[];
  let sut: AgentTokenGuard;
  let auth: AgentAuthService;

  const tokens = {
    contextByDigest: (digest: string) => {
      tokenLookups++;
      return Promise.resolve(digest === tokenDigest('good-secret') ? TOKEN : null);
    },
    touch: (id: string) => Promise.resolve(void touches.push(`token:${id}`)),
  } as unknown as AgentTokensRepository;
  const agents = {
    identityOf: (id: string) =>
      Promise.resolve(
        (
          {
            'agent-1': { poolId: 'apool-1', name: 'host-1' },
            'agent-other': { poolId: 'apool-2', name: 'host-2' },
          } as Record<string, { poolId: string; name: string }>
        )[id] ?? null,
      ),
    touch: (id: string) => Promise.resolve(void touches.push(`agent:${id}`)),
  } as unknown as AgentsRepository;

  const call = (handler: 'register' | 'claim', headers: Record<string, string>) => {
    const req = { headers } as unknown as AgentRequest;
    const context = {
      switchToHttp: () => ({ getRequest: () => req, getResponse: () => ({}) }),
      getHandler: () => Handlers.prototype[handler],
    } as unknown as ExecutionContext;
    return { req, result: sut.canActivate(context) };
  };

  beforeEach(() => {
    tokenLookups = 0;
    touches = [];
    const cache = new TtlMemo(5000, standingEpoch(), undefined, 'access');
    auth = new AgentAuthService(tokens, agents, cache, standingEpoch());
    sut = new AgentTokenGuard(auth, new Reflector(), { enabled: false } as RateLimitService);
  });

  it('lets a registration through with the token alone and hands it to the handler', async () => {
    const { req, result } = call('register', { authorization: 'Bearer good-secret' });
    await expect(result).resolves.toBe(true);
    expect(req.agentToken).toEqual(TOKEN);
  });

  it('needs an agent of the token pool on every other route', async () => {
    const ok = call('claim', { authorization: 'Bearer good-secret', 'x-plinth-agent': 'agent-1' });
    await expect(ok.result).resolves.toBe(true);
    expect(ok.req.agent).toEqual({ ...TOKEN, agentId: 'agent-1', agentName: 'host-1' });
    for (const agent of [undefined, 'agent-other', 'agent-unknown']) {
      const headers: Record<string, string> = { authorization: 'Bearer good-secret' };
      if (agent) headers['x-plinth-agent'] = agent;
      await expect(call('claim', headers).result).rejects.toMatchObject({ kind: 'unauthorized' });
    }
  });

  it('refuses a missing, malformed or unknown token', async () => {
    for (const authorization of [undefined, 'Basic abc', 'Bearer bad-secret']) {
      const headers: Record<string, string> = { 'x-plinth-agent': 'agent-1' };
      if (authorization) headers.authorization = authorization;
      await expect(call('claim', headers).result).rejects.toMatchObject({ kind: 'unauthorized' });
    }
  });

  it('remembers a known token between polls and writes the ping at most once per interval', async () => {
    const headers = { authorization: 'Bearer good-secret', 'x-plinth-agent': 'agent-1' };
    for (let i = 0; i < 5; i++) await call('claim', headers).result;
    expect(tokenLookups).toBe(1);
    expect(touches).toEqual(['agent:agent-1', 'token:at-1']);
    const later = Date.now() + PING_REFRESH_MS;
    await auth.noteActivity({ agentId: 'agent-1', tokenId: 'at-1' }, later);
    expect(touches).toEqual(['agent:agent-1', 'token:at-1', 'agent:agent-1', 'token:at-1']);
  });
});

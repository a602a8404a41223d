import { tokenDigest } from '../../common/auth/token-secret';
import { standingEpoch } from '../../common/cache/change-epoch';
import { TtlMemo } from '../../common/cache/ttl-memo';
import { AgentTokenContext, PING_REFRESH_MS } from './agent-context';
import { AuthStrategies } from '../../common/auth/auth-strategies';
import { AgentAuthService } from '../pools/agent-auth.service';
import { AgentTokenStrategy } from './agent-token.strategy';
import { AgentTokensRepository } from '../pools/agent-tokens.repository';
import { AgentActivityRepository } from '../pools/agent-activity.repository';
import { AgentRequest } from './current-agent.decorator';

const TOKEN: AgentTokenContext = {
  tokenId: 'at-1',
  poolId: 'apool-1',
  organizationId: 'org-1',
  organizationScoped: true,
};

describe('AgentTokenStrategy', () => {
  let tokenLookups: number;
  let touches: string[];
  let sut: AgentTokenStrategy;
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
  } as unknown as AgentActivityRepository;

  const call = (handler: 'register' | 'claim', headers: Record<string, string>) => {
    const req = { headers } as unknown as AgentRequest;
    return sut.validate(req, { registering: handler === 'register' });
  };

  beforeEach(() => {
    tokenLookups = 0;
    touches = [];
    const cache = new TtlMemo(5000, standingEpoch(), undefined, 'access');
    auth = new AgentAuthService(tokens, agents, cache, standingEpoch());
    sut = new AgentTokenStrategy(auth, new AuthStrategies());
  });

  it('lets a registration through with the token alone and hands it to the handler', async () => {
    await expect(call('register', { authorization: 'Bearer good-secret' })).resolves.toEqual(TOKEN);
  });

  it('needs an agent of the token pool on every other route', async () => {
    const ok = call('claim', { authorization: 'Bearer good-secret', 'x-plinth-agent': 'agent-1' });
    await expect(ok).resolves.toEqual({ ...TOKEN, agentId: 'agent-1', agentName: 'host-1' });
    for (const agent of [undefined, 'agent-other', 'agent-unknown']) {
      const headers: Record<string, string> = { authorization: 'Bearer good-secret' };
      if (agent) headers['x-plinth-agent'] = agent;
      await expect(call('claim', headers)).rejects.toMatchObject({ kind: 'unauthorized' });
    }
  });

  it('refuses a missing, malformed or unknown token', async () => {
    for (const authorization of [undefined, 'Basic abc', 'Bearer bad-secret']) {
      const headers: Record<string, string> = { 'x-plinth-agent': 'agent-1' };
      if (authorization) headers.authorization = authorization;
      await expect(call('claim', headers)).rejects.toMatchObject({ kind: 'unauthorized' });
    }
  });

  it('remembers a known token between polls and writes the ping at most once per interval', async () => {
    const headers = { authorization: 'Bearer good-secret', 'x-plinth-agent': 'agent-1' };
    for (let i = 0; i < 5; i++) await call('claim', headers);
    expect(tokenLookups).toBe(1);
    expect(touches).toEqual(['agent:agent-1', 'token:at-1']);
    const later = Date.now() + PING_REFRESH_MS;
    await auth.noteActivity({ agentId: 'agent-1', tokenId: 'at-1' }, later);
    expect(touches).toEqual(['agent:agent-1', 'token:at-1', 'agent:agent-1', 'token:at-1']);
  });
});

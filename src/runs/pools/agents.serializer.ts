import { ResourceObject, toOne } from '../../common/jsonapi/document';
import { enumOf, nullableStr, ResourceDoc, str, timestamp } from '../../common/jsonapi/openapi';
import { isoMillis } from '../../common/jsonapi/timestamps';
import { answerStandsUntil } from '../../common/cache/read-set';
import { AGENT_STATUSES, agentStatus, agentStatusChangesAt } from './agent-status';
import { AgentEntity } from './entities/agent.entity';

/** An agent and whether it holds a job (`busy`). */
export interface AgentView {
  agent: AgentEntity;
  working: boolean;
}

export const AGENT_DOC: ResourceDoc = {
  type: 'agents',
  attributes: {
    name: str(),
    status: enumOf(AGENT_STATUSES, 'unknown: idle or busy but not seen for a minute'),
    'ip-address': nullableStr(),
    'last-ping-at': timestamp(),
  },
  relationships: { 'agent-pool': { type: 'agent-pools' } },
  links: ['self'],
};

/** `now` (epoch ms, on the Clock) decides `status`; a remembered copy ends when it would change. */
export function serializeAgent({ agent, working }: AgentView, now: number): ResourceObject {
  const changesAt = agentStatusChangesAt(agent.status, agent.lastPingAt, now);
  if (changesAt) answerStandsUntil(changesAt);
  return {
    id: agent.id,
    type: 'agents',
    attributes: {
      name: agent.name,
      status: agentStatus(agent.status, agent.lastPingAt, now, working),
      'ip-address': agent.ipAddress,
      'last-ping-at': isoMillis(agent.lastPingAt),
    },
    relationships: { 'agent-pool': toOne('agent-pools', agent.poolId) },
    links: { self: `/api/v2/agents/${agent.id}` },
  };
}

import { ResourceObject, toOne } from '../../common/jsonapi/document';
import { nullableStr, ResourceDoc, str, timestamp } from '../../common/jsonapi/openapi';
import { isoMillis } from '../../common/jsonapi/timestamps';
import { AgentTokenEntity } from './entities/agent-token.entity';

export const AGENT_TOKEN_DOC: ResourceDoc = {
  type: 'authentication-tokens',
  attributes: {
    description: str(),
    token: nullableStr('The secret; present only in the response that created it'),
    'last-used-at': {
      ...timestamp('When an executor last used it (to within a few seconds)'),
      nullable: true,
    },
    'created-at': timestamp(),
  },
  relationships: { 'created-by': { type: 'users' } },
  links: ['self'],
};

/** `secret` is given only right after creation: it is never stored and never shown again. */
export function serializeAgentToken(token: AgentTokenEntity, secret?: string): ResourceObject {
  return {
    id: token.id,
    type: 'authentication-tokens',
    attributes: {
      description: token.description,
      token: secret ?? null,
      'last-used-at': isoMillis(token.lastUsedAt),
      'created-at': isoMillis(token.createdAt),
    },
    relationships: { 'created-by': toOne('users', token.createdById) },
    links: { self: `/api/v2/authentication-tokens/${token.id}` },
  };
}

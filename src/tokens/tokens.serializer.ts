import { ResourceObject, toOne } from '../common/jsonapi/document';
import { enumOf, nullableStr, ResourceDoc, timestamp } from '../common/jsonapi/openapi';
import { isoMillis } from '../common/jsonapi/timestamps';
import { TokenEntity } from './entities/token.entity';

export const TOKEN_DOC: ResourceDoc = {
  type: 'authentication-tokens',
  // Agent tokens, which `GET /authentication-tokens/:id` shows too, have neither.
  optional: ['kind', 'expired-at'],
  attributes: {
    kind: enumOf(['user', 'team', 'organization']),
    description: nullableStr(),
    token: nullableStr('The secret; present only in the response that created it'),
    'expired-at': { ...timestamp(), nullable: true },
    'created-at': timestamp(),
    'last-used-at': {
      ...timestamp(),
      nullable: true,
      description: 'When the token last authenticated a request; kept to the minute',
    },
  },
  relationships: { team: { type: 'teams' }, 'created-by': { type: 'users' } },
  links: ['self'],
};

/** `secret` is given only right after creation: it is never stored and never shown again. */
export function serializeToken(token: TokenEntity, secret?: string): ResourceObject {
  return {
    id: token.id,
    type: 'authentication-tokens',
    attributes: {
      kind: token.kind,
      description: token.description,
      token: secret ?? null,
      'expired-at': isoMillis(token.expiresAt),
      'created-at': isoMillis(token.createdAt),
      'last-used-at': isoMillis(token.lastUsedAt),
    },
    relationships: {
      ...(token.kind === 'team' && token.teamId ? { team: toOne('teams', token.teamId) } : {}),
      ...(token.userId ? { 'created-by': toOne('users', token.userId) } : {}),
    },
    links: { self: `/api/v2/authentication-tokens/${token.id}` },
  };
}

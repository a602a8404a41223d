import { ResourceObject } from '../common/jsonapi/document';
import { bool, ResourceDoc, str, timestamp } from '../common/jsonapi/openapi';
import { isoMillis } from '../common/jsonapi/timestamps';
import { UserEntity } from './entities/user.entity';

export const USER_DOC: ResourceDoc = {
  type: 'users',
  attributes: {
    username: str(),
    email: str('Shown to the user themself and to site administrators'),
    'is-site-admin': bool(),
    'created-at': timestamp(),
  },
  links: ['self'],
};

export function serializeUser(user: UserEntity, showPrivate: boolean): ResourceObject {
  return {
    id: user.id,
    type: 'users',
    attributes: {
      username: user.username,
      ...(showPrivate ? { email: user.email } : {}),
      'is-site-admin': user.isSiteAdmin,
      'created-at': isoMillis(user.createdAt),
    },
    links: { self: `/api/v2/users/${user.id}` },
  };
}

import { ResourceObject } from '../common/jsonapi/document';
import { bool, ResourceDoc, str, timestamp } from '../common/jsonapi/openapi';
import { isoMillis } from '../common/jsonapi/timestamps';
import { UserEntity } from './entities/user.entity';

export const USER_DOC: ResourceDoc = {
  type: 'users',
  optional: ['email'],
  attributes: {
    username: str(),
    email: str('Shown to the user themself and to site administrators'),
    'is-site-admin': bool(),
    'is-admin': bool("The real service's name for is-site-admin"),
    'is-suspended': bool('Suspended users cannot authenticate; site administrators unsuspend them'),
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
      'is-admin': user.isSiteAdmin,
      'is-suspended': user.isSuspended,
      'created-at': isoMillis(user.createdAt),
    },
    links: { self: `/api/v2/users/${user.id}` },
  };
}

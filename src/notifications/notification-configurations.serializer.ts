import { ResourceObject, toMany, toOne } from '../common/jsonapi/document';
import { bool, enumOf, nullableStr, ResourceDoc, str, timestamp } from '../common/jsonapi/openapi';
import { isoMillis } from '../common/jsonapi/timestamps';
import { NotificationConfigurationEntity } from './entities/notification-configuration.entity';
import { ACCEPTED_TRIGGERS, DESTINATION_TYPES } from './notification-rules';

export const NOTIFICATION_CONFIGURATION_DOC: ResourceDoc = {
  type: 'notification-configurations',
  attributes: {
    name: str('Shown in messages and verification payloads'),
    'destination-type': enumOf(DESTINATION_TYPES),
    enabled: bool('Only enabled configurations are sent notifications; enabling one verifies it first'),
    url: nullableStr('Where generic, Slack and Microsoft Teams notifications are POSTed'),
    token: nullableStr('Write-only (always null here): the HMAC-SHA512 key of X-TFE-Notification-Signature'),
    triggers: { type: 'array', items: enumOf(ACCEPTED_TRIGGERS) },
    'email-addresses': { type: 'array', items: { type: 'string' } },
    'delivery-responses': {
      type: 'array',
      description: 'The latest answers of the destination, newest first',
      items: {
        type: 'object',
        properties: {
          url: nullableStr(),
          body: str('The start of the answer body, or why no answer came'),
          code: str('The HTTP status as a string; empty when no answer came (strict clients read a string)'),
          headers: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
          'sent-at': timestamp('RFC 3339'),
          successful: enumOf(['true', 'false'], 'a string, as official clients read it'),
        },
      },
    },
    'created-at': timestamp(),
    'updated-at': timestamp(),
  },
  relationships: {
    subscribable: { type: 'workspaces' },
    users: { type: 'users', many: true },
  },
  links: ['self'],
};

export function notificationConfigurationPath(id: string): string {
  return `/api/v2/notification-configurations/${id}`;
}

export function serializeNotificationConfiguration(nc: NotificationConfigurationEntity): ResourceObject {
  const userIds = JSON.parse(nc.emailUserIds) as string[];
  return {
    id: nc.id,
    type: 'notification-configurations',
    attributes: {
      name: nc.name,
      'destination-type': nc.destinationType,
      enabled: nc.enabled,
      url: nc.url,
      token: null,
      triggers: JSON.parse(nc.triggers) as string[],
      'email-addresses': JSON.parse(nc.emailAddresses) as string[],
      'delivery-responses': JSON.parse(nc.deliveryResponses) as unknown[],
      'created-at': isoMillis(nc.createdAt),
      'updated-at': isoMillis(nc.updatedAt),
    },
    relationships: {
      subscribable: toOne('workspaces', nc.workspaceId),
      users: toMany('users', userIds),
    },
    links: { self: notificationConfigurationPath(nc.id) },
  };
}

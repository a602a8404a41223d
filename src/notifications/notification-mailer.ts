import { Injectable } from '@nestjs/common';
import type { NotificationConfigurationEntity } from './entities/notification-configuration.entity';

/** A mail that cannot be sent; `final`: trying again would not help. */
export class MailFailure extends Error {
  constructor(
    message: string,
    readonly final: boolean,
  ) {
    super(message);
    this.name = 'MailFailure';
  }
}

/**
 * Email deliveries. Plinth sends mail only through an SMTP server the operator configures; none is
 * configured in this build, so email configurations are stored and their deliveries end failed
 * with that reason.
 */
@Injectable()
export class NotificationMailer {
  send(
    _nc: NotificationConfigurationEntity,
    _message: { subject: string; text: string },
    _deliveryId: string,
  ): Promise<void> {
    return Promise.reject(new MailFailure('No mail server is configured (SMTP_URL)', true));
  }
}

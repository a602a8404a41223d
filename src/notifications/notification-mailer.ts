import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { createTransport, Transporter } from 'nodemailer';
import { AppConfig } from '../config/app-config';
import { UsersService } from '../users/users.service';
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
 * Email deliveries, through the SMTP server the operator configures (SMTP_URL) with nodemailer: a
 * plain-text message to the configuration's addresses and users. The server is the operator's
 * choice, so it is not subject to NOTIFICATION_ALLOWED_NETWORKS. Permanent SMTP refusals (5xx) are
 * final; anything else is retried like a webhook.
 */
@Injectable()
export class NotificationMailer implements OnApplicationShutdown {
  private transport?: Transporter;

  constructor(
    private readonly config: AppConfig,
    private readonly users: UsersService,
  ) {}

  async send(
    nc: NotificationConfigurationEntity,
    message: { subject: string; text: string },
    deliveryId: string,
  ): Promise<void> {
    const settings = this.config.notifications;
    if (!settings.smtpUrl) throw new MailFailure('No mail server is configured (SMTP_URL)', true);
    const userIds = JSON.parse(nc.emailUserIds) as string[];
    const users = userIds.length ? await this.users.findByIds(userIds) : [];
    const to = [...new Set([...(JSON.parse(nc.emailAddresses) as string[]), ...users.map((u) => u.email)])];
    if (!to.length) throw new MailFailure('The configuration has no email addresses or users', true);
    this.transport ??= createTransport({
      url: settings.smtpUrl,
      connectionTimeout: settings.timeoutMs,
      greetingTimeout: settings.timeoutMs,
      socketTimeout: settings.timeoutMs,
    } as Parameters<typeof createTransport>[0]);
    try {
      await this.transport.sendMail({
        from: settings.mailFrom,
        to,
        subject: message.subject,
        text: message.text,
        headers: { 'X-Plinth-Delivery': deliveryId },
      });
    } catch (err) {
      const code = (err as { responseCode?: number }).responseCode;
      const reason = err instanceof Error ? err.message : String(err);
      throw new MailFailure(
        `The mail server refused the message: ${reason}`,
        code !== undefined && code >= 500,
      );
    }
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}

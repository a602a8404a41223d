import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { isoMillis } from '../common/jsonapi/timestamps';
import { AppConfig } from '../config/app-config';
import { Secrets } from '../secrets/secrets.service';
import { NotificationConfigurationEntity } from './entities/notification-configuration.entity';
import {
  AttemptOutcome,
  DestinationType,
  emailMessage,
  EventNames,
  genericPayload,
  MAX_RECORDED_BODY_CHARS,
  MAX_RESPONSE_BODY_BYTES,
  outcomeOf,
  RunEvent,
  signature,
  slackPayload,
  teamsPayload,
} from './notification-rules';
import { MailFailure, NotificationMailer } from './notification-mailer';
import { DestinationGuard, DestinationRefused } from './outbound/destination-guard';
import { OutboundConnector, OutboundFailure } from './outbound/outbound-connector';

/** One entry of `delivery-responses`, as the real service and go-tfe shape it. */
export interface DeliveryResponse {
  url: string | null;
  body: string;
  /** The HTTP status as a string (`"200"`); empty when no answer came (go-tfe reads a string). */
  code: string;
  headers: Record<string, string[]>;
  'sent-at': string;
  /** `"true"` or `"false"`: a string, as go-tfe reads it. */
  successful: string;
}

/** How one attempt went. */
export interface Attempt {
  outcome: AttemptOutcome;
  response: DeliveryResponse;
  /** Why it failed, for the outbox row and the 400 of a failed verification. */
  error: string | null;
}

export const USER_AGENT = 'Plinth-Notifications/1';

/** The context a configuration's token is sealed under. */
export const tokenContext = (configurationId: string) => `notification-configurations/${configurationId}`;

/**
 * Sends one notification (or the verification, `event` null) to a configuration's destination in
 * its format, through the forgery guard and the pinned connector, and says how it went. Never
 * throws for a failed delivery: the failure is the attempt's outcome.
 */
@Injectable()
export class NotificationSender {
  constructor(
    private readonly guard: DestinationGuard,
    private readonly connector: OutboundConnector,
    private readonly mailer: NotificationMailer,
    private readonly secrets: Secrets,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** The configuration's token, opened; `token` given: the one not stored yet (a create or update). */
  tokenOf(nc: NotificationConfigurationEntity): string | null {
    return nc.sealedToken ? this.secrets.open(nc.sealedToken, tokenContext(nc.id)).toString('utf8') : null;
  }

  async send(
    nc: NotificationConfigurationEntity,
    token: string | null,
    event: RunEvent | null,
    names: EventNames,
    deliveryId: string,
  ): Promise<Attempt> {
    const sentAt = isoMillis(this.clock.now())!;
    const failed = (error: string, outcome: AttemptOutcome): Attempt => ({
      outcome,
      error,
      response: { url: nc.url, body: error, code: '', headers: {}, 'sent-at': sentAt, successful: 'false' },
    });
    if ((nc.destinationType as DestinationType) === 'email') {
      try {
        await this.mailer.send(nc, emailMessage(nc.name, event, names), deliveryId);
        return { outcome: 'delivered', error: null, response: this.mailed(nc, sentAt) };
      } catch (err) {
        if (err instanceof MailFailure) return failed(err.message, err.final ? 'final' : 'retry');
        throw err;
      }
    }
    let destination;
    try {
      destination = await this.guard.check(nc.url ?? '');
    } catch (err) {
      if (err instanceof DestinationRefused) return failed(`The URL ${err.message}`, 'final');
      throw err;
    }
    const body = JSON.stringify(this.payload(nc, event, names));
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'x-plinth-delivery': deliveryId,
    };
    if (token && nc.destinationType === 'generic')
      headers['x-tfe-notification-signature'] = signature(token, body);
    try {
      const answer = await this.connector.send(destination, {
        headers,
        body,
        timeoutMs: this.config.notifications.timeoutMs,
        maxResponseBytes: MAX_RESPONSE_BODY_BYTES,
      });
      const outcome = outcomeOf(answer.status);
      return {
        outcome,
        error: outcome === 'delivered' ? null : `The destination answered ${answer.status}`,
        response: {
          url: nc.url,
          body: answer.body.slice(0, MAX_RECORDED_BODY_CHARS),
          code: String(answer.status),
          headers: answer.headers,
          'sent-at': sentAt,
          successful: String(outcome === 'delivered'),
        },
      };
    } catch (err) {
      if (err instanceof OutboundFailure)
        return failed(`The destination could not be reached: ${err.message}`, 'retry');
      throw err;
    }
  }

  private payload(
    nc: NotificationConfigurationEntity,
    event: RunEvent | null,
    names: EventNames,
  ): Record<string, unknown> {
    switch (nc.destinationType as Exclude<DestinationType, 'email'>) {
      case 'slack':
        return slackPayload(nc.name, event, names);
      case 'microsoft-teams':
        return teamsPayload(nc.name, event, names);
      case 'generic':
        return genericPayload(nc.id, event, names);
    }
  }

  private mailed(nc: NotificationConfigurationEntity, sentAt: string): DeliveryResponse {
    return {
      url: null,
      body: 'Sent to the mail server',
      code: '',
      headers: {},
      'sent-at': sentAt,
      successful: 'true',
    };
  }
}

import { createHmac } from 'node:crypto';
import type { RunStatus } from '../runs/run-rules';

export const DESTINATION_TYPES = ['generic', 'slack', 'microsoft-teams', 'email'] as const;
export type DestinationType = (typeof DESTINATION_TYPES)[number];

/** The run triggers Plinth raises. */
export const RUN_TRIGGERS = [
  'run:created',
  'run:planning',
  'run:needs_attention',
  'run:applying',
  'run:completed',
  'run:errored',
] as const;
export type RunTrigger = (typeof RUN_TRIGGERS)[number];

/**
 * The triggers the real service accepts on a workspace configuration that Plinth stores but never
 * raises: it runs no health assessments and no scheduled auto-destroy, and a deleted workspace
 * takes its configurations (and their undelivered notifications) with it.
 */
export const NEVER_RAISED_TRIGGERS = [
  'assessment:drifted',
  'assessment:failed',
  'assessment:check_failure',
  'workspace:auto_destroy_reminder',
  'workspace:auto_destroy_run_results',
  'workspace:deleted',
] as const;

/** Every trigger a workspace configuration accepts (any other is a 422). */
export const ACCEPTED_TRIGGERS: readonly string[] = [...RUN_TRIGGERS, ...NEVER_RAISED_TRIGGERS];

export const MAX_CONFIGURATIONS_PER_WORKSPACE = 20;
/** delivery-responses keeps this many of the latest answers, newest first. */
export const MAX_DELIVERY_RESPONSES = 5;
/** Of an answer's body, this much is read and kept. */
export const MAX_RESPONSE_BODY_BYTES = 64 * 1024;
export const MAX_RECORDED_BODY_CHARS = 4096;

/** What a run's move raises: its trigger, the finer trigger type, the message. Null: nothing. */
export interface RaisedTrigger {
  trigger: RunTrigger;
  triggerType: string;
  message: string;
}

/**
 * The trigger a run raises on reaching `status` (`created`: the run was just made). Speculative
 * (plan-only) runs raise nothing, as in the real service. A run that waits for its confirmation
 * or a policy override needs attention; a run that ends well completes; one that errors or is
 * canceled errored (the real service's `run:errored` covers cancellations).
 */
export function raisedBy(
  run: { status: RunStatus; planOnly: boolean; autoApply: boolean },
  created: boolean,
): RaisedTrigger | null {
  if (run.planOnly) return null;
  if (created) return { trigger: 'run:created', triggerType: 'run:created', message: 'Run Created' };
  switch (run.status) {
    case 'planning':
      return { trigger: 'run:planning', triggerType: 'run:planning', message: 'Run Planning' };
    case 'planned':
      return attention('run:pending_apply_approval', 'Run Needs Attention');
    case 'policy_checked':
      return run.autoApply ? null : attention('run:pending_apply_approval', 'Run Needs Attention');
    case 'policy_override':
      return attention('run:policy_override_required', 'Run Needs Attention: a policy override is required');
    case 'applying':
      return { trigger: 'run:applying', triggerType: 'run:applying', message: 'Run Applying' };
    case 'applied':
      return completed('Run Applied');
    case 'planned_and_finished':
      return completed('Run Planned and Finished');
    case 'discarded':
      return completed('Run Discarded');
    case 'errored':
      return { trigger: 'run:errored', triggerType: 'run:run_errored', message: 'Run Errored' };
    case 'canceled':
    case 'force_canceled':
      return { trigger: 'run:errored', triggerType: 'run:run_canceled', message: 'Run Canceled' };
    case 'pending':
    case 'plan_queued':
    case 'policy_checking':
    case 'policy_soft_failed':
    case 'planned_and_saved':
    case 'apply_queued':
      return null;
  }
}

function attention(triggerType: string, message: string): RaisedTrigger {
  return { trigger: 'run:needs_attention', triggerType, message };
}

function completed(message: string): RaisedTrigger {
  return { trigger: 'run:completed', triggerType: 'run:completed', message };
}

/** A run event as the outbox keeps it: the run as it was at the move. */
export interface RunEvent {
  runId: string;
  runMessage: string;
  runCreatedAt: string;
  runCreatedById: string | null;
  /** The user whose action made the move, if a user's (absent in rows written before it was kept). */
  runUpdatedById?: string | null;
  runStatus: RunStatus;
  runUpdatedAt: string;
  workspaceId: string;
  trigger: RunTrigger;
  triggerType: string;
  message: string;
}

/** What the payload adds at send time: names that are read then. */
export interface EventNames {
  workspaceName: string | null;
  organizationName: string | null;
  createdBy: string | null;
  /** The username of the user whose action made the move. */
  updatedBy: string | null;
  runUrl: string | null;
}

/** The real service's generic payload, version 1, snake_case. `event` null: the verification. */
export function genericPayload(
  configurationId: string,
  event: RunEvent | null,
  names: EventNames,
): Record<string, unknown> {
  if (!event) {
    return {
      payload_version: 1,
      notification_configuration_id: configurationId,
      run_url: null,
      run_id: null,
      run_message: null,
      run_created_at: null,
      run_created_by: null,
      workspace_id: null,
      workspace_name: null,
      organization_name: null,
      notifications: [
        {
          message: 'Verification of test',
          trigger: 'verification',
          run_status: null,
          run_updated_at: null,
          run_updated_by: null,
        },
      ],
    };
  }
  return {
    payload_version: 1,
    notification_configuration_id: configurationId,
    run_url: names.runUrl,
    run_id: event.runId,
    run_message: event.runMessage,
    run_created_at: event.runCreatedAt,
    run_created_by: names.createdBy,
    workspace_id: event.workspaceId,
    workspace_name: names.workspaceName,
    organization_name: names.organizationName,
    notifications: [
      {
        message: event.message,
        trigger: event.trigger,
        trigger_type: event.triggerType,
        run_status: event.runStatus,
        run_updated_at: event.runUpdatedAt,
        run_updated_by: names.updatedBy,
      },
    ],
  };
}

/** One line for people: what happened to which run, where. */
function headline(configurationName: string, event: RunEvent | null, names: EventNames): string {
  if (!event) return `Verification of ${configurationName}`;
  const where = `${names.organizationName ?? '?'}/${names.workspaceName ?? event.workspaceId}`;
  return `${event.message}: run ${event.runId} in workspace ${where} (${event.runStatus.replace(/_/g, ' ')})`;
}

/** A Slack incoming-webhook message. */
export function slackPayload(
  configurationName: string,
  event: RunEvent | null,
  names: EventNames,
): Record<string, unknown> {
  const text = headline(configurationName, event, names);
  return {
    text: names.runUrl ? `${text} <${names.runUrl}|View run>` : text,
    ...(event?.runMessage ? { attachments: [{ text: event.runMessage }] } : {}),
  };
}

/** A Microsoft Teams incoming-webhook message (MessageCard). */
export function teamsPayload(
  configurationName: string,
  event: RunEvent | null,
  names: EventNames,
): Record<string, unknown> {
  const title = headline(configurationName, event, names);
  return {
    '@type': 'MessageCard',
    '@context': 'https://schema.org/extensions',
    summary: title,
    themeColor: event?.trigger === 'run:errored' ? 'D13438' : '5C2D91',
    title,
    text: event?.runMessage ?? 'Plinth can send notifications here.',
    ...(names.runUrl
      ? {
          potentialAction: [
            { '@type': 'OpenUri', name: 'View run', targets: [{ os: 'default', uri: names.runUrl }] },
          ],
        }
      : {}),
  };
}

/** Plain-text email: subject and body, with the run's link. */
export function emailMessage(
  configurationName: string,
  event: RunEvent | null,
  names: EventNames,
): { subject: string; text: string } {
  const subject = headline(configurationName, event, names);
  const lines = [subject, ''];
  if (event) {
    lines.push(`Message: ${event.runMessage}`, `Status: ${event.runStatus}`);
    if (names.runUrl) lines.push(`Run: ${names.runUrl}`);
  } else {
    lines.push(`Plinth can send the notifications of "${configurationName}" to this address.`);
  }
  return { subject, text: `${lines.join('\n')}\n` };
}

/** `X-TFE-Notification-Signature`: lowercase hex HMAC-SHA512 of the raw body under the token. */
export function signature(token: string, body: string): string {
  return createHmac('sha512', token).update(body).digest('hex');
}

/** How an attempt ended, as far as retrying goes. */
export type AttemptOutcome = 'delivered' | 'retry' | 'final';

/** 2xx delivered; 429, 5xx and network failures (no status) are retried; any other answer is final. */
export function outcomeOf(status: number | null): AttemptOutcome {
  if (status === null) return 'retry';
  if (status >= 200 && status < 300) return 'delivered';
  if (status === 429 || status >= 500) return 'retry';
  return 'final';
}

/**
 * How long before attempt `attempts + 1`: base · 2^(attempts − 1), capped, with full jitter on its
 * upper half (so retries of many deliveries spread out but never come sooner than half the step).
 */
export function backoffMs(attempts: number, baseMs: number, maxMs: number, random = Math.random): number {
  const step = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(step / 2 + random() * (step / 2));
}

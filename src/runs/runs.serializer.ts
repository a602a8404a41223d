import { ResourceObject, toMany, toOne } from '../common/jsonapi/document';
import { bool, enumOf, int, nullableStr, ResourceDoc, str, timestamp } from '../common/jsonapi/openapi';
import { isoMillis } from '../common/jsonapi/timestamps';
import { answerStandsUntil } from '../common/cache/read-set';
import { WorkspaceAccessLevel } from '../common/auth/principal';
import { RunPhaseEntity } from './entities/run-phase.entity';
import { RunTriggerOutcomeEntity } from './entities/run-trigger-outcome.entity';
import { RunEntity } from './entities/run.entity';
import { runOptionsWire } from './run-options';
import {
  ACTION_LEVEL,
  actionsChangeAt,
  availableActions,
  levelAllows,
  PHASE_STATUSES,
  RUN_STATUSES,
} from './run-rules';

const OFFSET_TIMESTAMP = { type: 'string', example: '2019-06-21T21:29:48+00:00' } as const;
const timestampMap = (description: string) => ({
  type: 'object' as const,
  description,
  additionalProperties: OFFSET_TIMESTAMP,
});
const flags = (names: string[]) => ({
  type: 'object' as const,
  properties: Object.fromEntries(names.map((n) => [n, bool()])),
});

export const RUN_DOC: ResourceDoc = {
  type: 'runs',
  optional: ['force-cancel-available-at'],
  attributes: {
    status: enumOf(RUN_STATUSES),
    'status-timestamps': timestampMap(
      '`plan-queueable-at`, then one `<status>-at` per status passed through',
    ),
    message: str(),
    source: str('`tfe-api`, `tfe-configuration-version` or `tfe-run-trigger`'),
    'trigger-reason': str('`manual`, or `run-trigger` for runs queued by a run trigger'),
    'is-destroy': bool(),
    'plan-only': bool(),
    'auto-apply': bool(),
    refresh: bool('Refresh the state before planning (default true; false plans with `-refresh=false`)'),
    'refresh-only': bool('Plan only the refresh of the state (default false; `-refresh-only`)'),
    'target-addrs': {
      type: 'array',
      items: { type: 'string', maxLength: 1000 },
      maxItems: 100,
      description: 'Resource addresses the plan is limited to (`-target`), at most 100',
    },
    'replace-addrs': {
      type: 'array',
      items: { type: 'string', maxLength: 1000 },
      maxItems: 100,
      description: 'Resource addresses the plan replaces (`-replace`), at most 100',
    },
    'allow-empty-apply': bool('A plan without changes may still be confirmed and applied (default false)'),
    'allow-config-generation': bool('The plan may generate configuration for import blocks (default false)'),
    'save-plan': bool(
      'A saved plan (default false): plans at once without the lock, stops in `planned_and_saved`, ' +
        'applied only by a later confirmation',
    ),
    'terraform-version': nullableStr('Plan-only runs: the tool version to plan with'),
    'has-changes': bool(),
    variables: {
      type: 'array',
      description:
        'The run variables given at creation (`-var`, `-var-file`, `TF_VAR_*`), in order, each value an ' +
        'HCL literal expression; null for a key that is sensitive by name in the workspace',
      items: {
        type: 'object',
        properties: { key: str(), value: nullableStr('HCL literal expression; null when sensitive') },
      },
    },
    'error-message': nullableStr('Why the run errored'),
    'canceled-at': { ...timestamp(), nullable: true },
    'force-cancel-available-at': { ...timestamp('Only after a cancel of a running phase'), nullable: true },
    'created-at': timestamp(),
    actions: flags(['is-cancelable', 'is-confirmable', 'is-discardable', 'is-force-cancelable']),
    permissions: flags([
      'can-apply',
      'can-cancel',
      'can-comment',
      'can-discard',
      'can-force-cancel',
      'can-force-execute',
      'can-override-policy-check',
    ]),
    'run-trigger-outcomes': {
      type: 'array',
      description: 'Once applied: per outbound run trigger, the run it queued or why none',
      items: {
        type: 'object',
        properties: {
          'run-trigger-id': str(),
          'workspace-id': str(),
          'run-id': nullableStr(),
          reason: nullableStr(),
        },
      },
    },
  },
  relationships: {
    workspace: { type: 'workspaces' },
    'configuration-version': { type: 'configuration-versions' },
    'created-by': { type: 'users' },
    plan: { type: 'plans' },
    apply: { type: 'applies' },
    'triggering-run': { type: 'runs' },
    'policy-checks': { type: 'policy-checks', many: true },
    'task-stages': { type: 'task-stages', many: true },
    'cost-estimate': { type: 'cost-estimates' },
  },
  links: ['self'],
};

/** Plinth has no run tasks and no cost estimation: runs link none (the CLI reads both). */
export const TASK_STAGE_DOC: ResourceDoc = {
  type: 'task-stages',
  attributes: { stage: enumOf(['pre_plan', 'post_plan', 'pre_apply', 'post_apply']), status: str() },
  links: [],
};
export const COST_ESTIMATE_DOC: ResourceDoc = {
  type: 'cost-estimates',
  attributes: { status: str() },
  links: [],
};

const PHASE_ATTRIBUTES = {
  status: enumOf(PHASE_STATUSES),
  'status-timestamps': timestampMap('`queued-at`, `started-at`, `finished-at`, `errored-at`, `canceled-at`'),
  'resource-additions': int(),
  'resource-changes': int(),
  'resource-destructions': int(),
  'resource-imports': int(),
  'log-read-url': str(
    'Absolute signed link to the log (no Authorization), valid for a day: read by byte `offset` and ' +
      '`limit`, framed with STX (0x02) and, once the phase has ended, ETX (0x03); while the phase runs ' +
      'it answers what exists so far',
  ),
  'error-message': nullableStr(),
  'execution-details': {
    type: 'object',
    properties: { mode: str('`agent`'), 'agent-id': nullableStr(), 'agent-pool-id': nullableStr() },
  },
};

export const PLAN_DOC: ResourceDoc = {
  type: 'plans',
  attributes: { ...PHASE_ATTRIBUTES, 'has-changes': { ...bool(), nullable: true } },
  relationships: { run: { type: 'runs' } },
  links: ['self', 'json-output'],
};

export const APPLY_DOC: ResourceDoc = {
  type: 'applies',
  attributes: PHASE_ATTRIBUTES,
  relationships: { run: { type: 'runs' } },
  links: ['self'],
};

export const runPath = (id: string) => `/api/v2/runs/${id}`;
export const planPath = (id: string) => `/api/v2/plans/${id}`;
export const applyPath = (id: string) => `/api/v2/applies/${id}`;

export function serializeRun(
  run: RunEntity,
  level: WorkspaceAccessLevel | null,
  now: Date,
  outcomes: RunTriggerOutcomeEntity[],
  canOverridePolicy = false,
  policyCheckIds: readonly string[] = [],
  variables: readonly { key: string; value: string | null }[] = [],
): ResourceObject {
  const state = { ...run, cancelRequested: run.canceledAt !== null };
  const actions = availableActions(state, now);
  // `actions` reads the clock: a remembered copy of this answer ends when they change.
  const changesAt = actionsChangeAt(state, now);
  if (changesAt) answerStandsUntil(changesAt);
  const can = (action: keyof typeof ACTION_LEVEL) => levelAllows(level, ACTION_LEVEL[action]);
  return {
    id: run.id,
    type: 'runs',
    attributes: {
      status: run.status,
      'status-timestamps': JSON.parse(run.statusTimestamps),
      message: run.message,
      source: run.source,
      'trigger-reason': run.triggerReason,
      'is-destroy': run.isDestroy,
      'plan-only': run.planOnly,
      'auto-apply': run.autoApply,
      ...runOptionsWire(run),
      'has-changes': run.hasChanges,
      variables: variables.map(({ key, value }) => ({ key, value })),
      'error-message': run.errorMessage,
      'canceled-at': isoMillis(run.canceledAt),
      ...(run.forceCancelAvailableAt
        ? { 'force-cancel-available-at': isoMillis(run.forceCancelAvailableAt) }
        : {}),
      'created-at': isoMillis(run.createdAt),
      actions: {
        'is-cancelable': actions.cancel,
        'is-confirmable': actions.apply,
        'is-discardable': actions.discard,
        'is-force-cancelable': actions['force-cancel'],
      },
      permissions: {
        'can-apply': can('apply'),
        'can-cancel': can('cancel'),
        'can-comment': can('read'),
        'can-discard': can('discard'),
        'can-force-cancel': can('force-cancel'),
        'can-force-execute': false,
        'can-override-policy-check': canOverridePolicy,
      },
      'run-trigger-outcomes': outcomes.map((o) => ({
        'run-trigger-id': o.runTriggerId,
        'workspace-id': o.workspaceId,
        'run-id': o.runId,
        reason: o.reason,
      })),
    },
    relationships: {
      workspace: toOne('workspaces', run.workspaceId),
      'configuration-version': toOne('configuration-versions', run.configurationVersionId),
      'created-by': toOne('users', run.createdById),
      plan: toOne('plans', run.planId),
      apply: toOne('applies', run.applyId),
      'triggering-run': toOne('runs', run.triggeringRunId),
      'policy-checks': toMany('policy-checks', policyCheckIds),
      'task-stages': toMany('task-stages', []),
      'cost-estimate': toOne('cost-estimates', null),
    },
    links: { self: runPath(run.id) },
  };
}

/** `logUrl`: the signed log link. */
export function serializePhase(phase: RunPhaseEntity, logUrl: string): ResourceObject {
  const plan = phase.kind === 'plan';
  const self = plan ? planPath(phase.id) : applyPath(phase.id);
  return {
    id: phase.id,
    type: plan ? 'plans' : 'applies',
    attributes: {
      status: phase.status,
      'status-timestamps': JSON.parse(phase.statusTimestamps),
      ...(plan ? { 'has-changes': phase.hasChanges } : {}),
      'resource-additions': phase.resourceAdditions,
      'resource-changes': phase.resourceChanges,
      'resource-destructions': phase.resourceDestructions,
      'resource-imports': phase.resourceImports,
      'log-read-url': logUrl,
      'error-message': phase.errorMessage,
      'execution-details': { mode: 'agent', 'agent-id': phase.agentId, 'agent-pool-id': phase.agentPoolId },
    },
    relationships: { run: toOne('runs', phase.runId) },
    links: plan ? { self, 'json-output': `${self}/json-output` } : { self },
  };
}

import { ResourceObject, toOne } from '../../common/jsonapi/document';
import { bool, enumOf, int, nullableStr, ResourceDoc, str, timestamp } from '../../common/jsonapi/openapi';
import { isoMillis } from '../../common/jsonapi/timestamps';
import { PolicyEvaluationEntity } from './entities/policy-evaluation.entity';
import { PolicyOutcomeEntity } from './entities/policy-outcome.entity';
import { EVALUATION_STATUSES, POLICY_CHECK_STATUSES, sumCounts } from './policy-check-rules';
import { CheckView, EvaluationView } from './policy-checks.service';

const OFFSET_MAP = (description: string) => ({
  type: 'object' as const,
  description,
  additionalProperties: { type: 'string', example: '2019-06-21T21:29:48+00:00' },
});

const POLICY_ITEM = {
  type: 'object' as const,
  properties: {
    policy_name: str(),
    description: nullableStr(),
    enforcement_level: str(
      'framework_a: advisory, soft-mandatory, hard-mandatory; framework_b: advisory, mandatory',
    ),
    query: nullableStr('framework_b only'),
    status: enumOf(['pending', 'passed', 'failed']),
    output: nullableStr("The engine's output for this policy"),
  },
};

export const POLICY_CHECK_DOC: ResourceDoc = {
  type: 'policy-checks',
  attributes: {
    status: enumOf(POLICY_CHECK_STATUSES),
    scope: enumOf(['organization']),
    'status-timestamps': OFFSET_MAP('`queued-at`, then `passed-at`, `soft-failed-at`, `hard-failed-at`, …'),
    actions: { type: 'object', properties: { 'is-overridable': bool() } },
    permissions: {
      type: 'object',
      properties: { 'can-override': bool('The manage-policy-overrides permission') },
    },
    result: {
      type: 'object',
      properties: {
        result: bool('No mandatory policy failed'),
        passed: int(),
        'total-failed': int(),
        'hard-failed': int('Failures nobody may override'),
        'soft-failed': int('Failures an override lets through'),
        'advisory-failed': int(),
        'duration-ms': int(),
        duration: int('The same, under the name go-tfe reads'),
        'policy-sets': {
          type: 'array',
          description: 'Per set: its evaluation and, per policy, the outcome and the engine output',
          items: {
            type: 'object',
            properties: {
              'policy-evaluation-id': str(),
              'policy-set-id': str(),
              'policy-set-name': str(),
              'policy-kind': enumOf(['framework_a', 'framework_b']),
              'policy-tool-version': str(),
              'policy-set-version-id': nullableStr(),
              overridable: bool(),
              status: enumOf(EVALUATION_STATUSES),
              error: nullableStr('Why the set was skipped or its evaluation errored'),
              policies: { type: 'array', items: POLICY_ITEM },
            },
          },
        },
      },
    },
    'error-message': nullableStr(),
    'overridden-at': { ...timestamp(), nullable: true },
    'created-at': timestamp(),
  },
  relationships: { run: { type: 'runs' }, 'overridden-by': { type: 'users' } },
  links: ['self', 'output'],
};

const RESULT_COUNT = {
  type: 'object' as const,
  properties: { 'advisory-failed': int(), errored: int(), 'mandatory-failed': int(), passed: int() },
};

export const POLICY_EVALUATION_DOC: ResourceDoc = {
  type: 'policy-evaluations',
  attributes: {
    status: enumOf(EVALUATION_STATUSES, "`unreachable`: the set was skipped (see its outcome's `error`)"),
    'policy-kind': enumOf(['framework_a', 'framework_b']),
    'policy-tool-version': str(),
    'result-count': RESULT_COUNT,
    'status-timestamps': OFFSET_MAP('`queued-at`, `running-at`, `passed-at`, `failed-at`, …'),
    'created-at': timestamp(),
    'updated-at': timestamp(),
  },
  relationships: {
    'policy-check': { type: 'policy-checks' },
    'policy-set-outcomes': { type: 'policy-set-outcomes', many: true, linksOnly: true },
  },
  links: ['self'],
};

export const POLICY_SET_OUTCOME_DOC: ResourceDoc = {
  type: 'policy-set-outcomes',
  attributes: {
    outcomes: { type: 'array', items: POLICY_ITEM },
    error: nullableStr(),
    overridable: bool(),
    'policy-set-name': str(),
    'policy-set-description': nullableStr(),
    'result-count': RESULT_COUNT,
    'policy-tool-version': str(),
  },
  relationships: { 'policy-evaluation': { type: 'policy-evaluations' } },
  links: ['self'],
};

const policyItem = (o: PolicyOutcomeEntity) => ({
  policy_name: o.policyName,
  description: o.description,
  enforcement_level: o.enforcementLevel,
  query: o.query,
  status: o.status,
  output: o.output,
});

const resultCount = (e: PolicyEvaluationEntity) => ({
  'advisory-failed': e.advisoryFailed,
  errored: e.status === 'errored' ? 1 : 0,
  'mandatory-failed': e.softFailed + e.hardFailed,
  passed: e.passed,
});

export function serializePolicyCheck(view: CheckView): ResourceObject {
  const { check } = view;
  const counts = sumCounts(view.evaluations.map((v) => v.evaluation));
  const durationMs = check.finishedAt ? check.finishedAt.getTime() - check.createdAt.getTime() : 0;
  const self = `/api/v2/policy-checks/${check.id}`;
  return {
    id: check.id,
    type: 'policy-checks',
    attributes: {
      status: check.status,
      scope: 'organization',
      'status-timestamps': JSON.parse(check.statusTimestamps),
      actions: { 'is-overridable': view.overridable },
      permissions: { 'can-override': view.canOverride },
      result: {
        result: counts.softFailed + counts.hardFailed === 0 && check.status !== 'errored',
        passed: counts.passed,
        'total-failed': counts.advisoryFailed + counts.softFailed + counts.hardFailed,
        'hard-failed': counts.hardFailed,
        'soft-failed': counts.softFailed,
        'advisory-failed': counts.advisoryFailed,
        'duration-ms': durationMs,
        duration: durationMs,
        'policy-sets': view.evaluations.map(({ evaluation: e, outcomes }) => ({
          'policy-evaluation-id': e.id,
          'policy-set-id': e.policySetId,
          'policy-set-name': e.policySetName,
          'policy-kind': e.policyKind,
          'policy-tool-version': e.policyToolVersion,
          'policy-set-version-id': e.policySetVersionId,
          overridable: e.overridable,
          status: e.status,
          error: e.error,
          policies: outcomes.map(policyItem),
        })),
      },
      'error-message': check.errorMessage,
      'overridden-at': isoMillis(check.overriddenAt),
      'created-at': isoMillis(check.createdAt),
    },
    relationships: {
      run: toOne('runs', check.runId),
      'overridden-by': toOne(check.overriddenByType ?? 'users', check.overriddenById),
    },
    links: { self, output: `${self}/output` },
  };
}

export function serializePolicyEvaluation({ evaluation: e }: EvaluationView): ResourceObject {
  return {
    id: e.id,
    type: 'policy-evaluations',
    attributes: {
      status: e.status,
      'policy-kind': e.policyKind,
      'policy-tool-version': e.policyToolVersion,
      'result-count': resultCount(e),
      'status-timestamps': JSON.parse(e.statusTimestamps),
      'created-at': isoMillis(e.createdAt),
      'updated-at': isoMillis(e.updatedAt),
    },
    relationships: {
      'policy-check': toOne('policy-checks', e.policyCheckId),
      'policy-set-outcomes': { links: { related: `/api/v2/policy-evaluations/${e.id}/policy-set-outcomes` } },
    },
    links: { self: `/api/v2/policy-evaluations/${e.id}` },
  };
}

export function serializePolicySetOutcome({ evaluation: e, outcomes }: EvaluationView): ResourceObject {
  return {
    id: e.outcomeId,
    type: 'policy-set-outcomes',
    attributes: {
      outcomes: outcomes.map(policyItem),
      error: e.error,
      overridable: e.overridable,
      'policy-set-name': e.policySetName,
      'policy-set-description': e.policySetDescription,
      'result-count': resultCount(e),
      'policy-tool-version': e.policyToolVersion,
    },
    relationships: { 'policy-evaluation': toOne('policy-evaluations', e.id) },
    links: { self: `/api/v2/policy-set-outcomes/${e.outcomeId}` },
  };
}

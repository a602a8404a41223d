import { Violations } from '../../common/errors/domain-error';
import { ENFORCEMENT_LEVELS, PolicyKind } from '../../policies/policy-kinds';
import type { CheckVerdict } from '../policy-gate.registry';

/** The real service's policy check statuses (go-tfe `PolicyStatus`) that Plinth uses. */
export const POLICY_CHECK_STATUSES = [
  'queued',
  'passed',
  'soft_failed',
  'hard_failed',
  'overridden',
  'errored',
  'canceled',
] as const;
export type PolicyCheckStatus = (typeof POLICY_CHECK_STATUSES)[number];

/** The real service's policy evaluation statuses; `unreachable` is a set skipped with its reason. */
export const EVALUATION_STATUSES = [
  'queued',
  'running',
  'passed',
  'failed',
  'overridden',
  'errored',
  'canceled',
  'unreachable',
] as const;
export type EvaluationStatus = (typeof EVALUATION_STATUSES)[number];

export const POLICY_OUTCOME_STATUSES = ['pending', 'passed', 'failed'] as const;
export type PolicyOutcomeStatus = (typeof POLICY_OUTCOME_STATUSES)[number];

const OPEN_EVALUATIONS: readonly EvaluationStatus[] = ['queued', 'running'];

export function isOpen(status: EvaluationStatus): boolean {
  return OPEN_EVALUATIONS.includes(status);
}

/**
 * What a failed policy weighs. Advisory failures only warn. framework_a's soft-mandatory
 * failures may be overridden; its hard-mandatory failures and framework_b's mandatory ones may be
 * only when their set is `overridable` (as the real service treats both frameworks).
 */
export type Severity = 'advisory' | 'soft' | 'hard';

export function failureSeverity(level: string, overridable: boolean): Severity {
  if (level === 'advisory') return 'advisory';
  if (level === 'soft-mandatory' || overridable) return 'soft';
  return 'hard';
}

export interface ResultCounts {
  passed: number;
  advisoryFailed: number;
  softFailed: number;
  hardFailed: number;
}

export const NO_RESULTS: ResultCounts = { passed: 0, advisoryFailed: 0, softFailed: 0, hardFailed: 0 };

export function countResults(
  outcomes: readonly { status: PolicyOutcomeStatus; enforcementLevel: string }[],
  overridable: boolean,
): ResultCounts {
  const counts = { ...NO_RESULTS };
  for (const o of outcomes) {
    if (o.status === 'passed') counts.passed++;
    else if (o.status === 'failed') {
      const severity = failureSeverity(o.enforcementLevel, overridable);
      if (severity === 'advisory') counts.advisoryFailed++;
      else if (severity === 'soft') counts.softFailed++;
      else counts.hardFailed++;
    }
  }
  return counts;
}

export function sumCounts(all: readonly ResultCounts[]): ResultCounts {
  return all.reduce(
    (a, b) => ({
      passed: a.passed + b.passed,
      advisoryFailed: a.advisoryFailed + b.advisoryFailed,
      softFailed: a.softFailed + b.softFailed,
      hardFailed: a.hardFailed + b.hardFailed,
    }),
    NO_RESULTS,
  );
}

/** An evaluation fails when a mandatory policy failed; advisory failures leave it passed. */
export function evaluationStatus(counts: ResultCounts): 'passed' | 'failed' {
  return counts.softFailed + counts.hardFailed > 0 ? 'failed' : 'passed';
}

/**
 * The check's verdict once no evaluation is open (null before): an errored evaluation errors the
 * check; else any failure nobody may override blocks the run; else any mandatory failure waits
 * for an override; else the run goes on.
 */
export function checkVerdict(
  evaluations: readonly (ResultCounts & {
    status: EvaluationStatus;
    policySetName: string;
    error: string | null;
  })[],
): CheckVerdict | null {
  if (evaluations.some((e) => isOpen(e.status))) return null;
  const errored = evaluations.find((e) => e.status === 'errored');
  if (errored) {
    return {
      verdict: 'errored',
      reason: `policy set ${errored.policySetName}: ${errored.error ?? 'errored'}`,
    };
  }
  const total = sumCounts(evaluations);
  if (total.hardFailed) return { verdict: 'blocked', reason: null };
  if (total.softFailed) return { verdict: 'overridable', reason: null };
  return { verdict: 'passed', reason: null };
}

export function checkStatusOf(verdict: CheckVerdict['verdict']): PolicyCheckStatus {
  switch (verdict) {
    case 'passed':
      return 'passed';
    case 'overridable':
      return 'soft_failed';
    case 'blocked':
      return 'hard_failed';
    case 'errored':
      return 'errored';
  }
}

/** One policy's reported result, in the form the outcome rows take. */
export interface ReportedResult {
  policy: string;
  status: 'passed' | 'failed';
  'enforcement-level'?: string;
  output?: string;
}

export interface MatchedResult {
  name: string;
  enforcementLevel: string;
  status: 'passed' | 'failed';
  output: string | null;
}

/**
 * Checks a report's results against what was evaluated. Sets of individual policies: exactly one
 * result per snapshotted policy, whose level is the snapshot's (a level in the report is ignored).
 * Versioned sets: the set's own configuration names the policies, so each result brings its
 * level, which must be one of the kind's. Throws a 422 with one item per problem.
 */
export function matchResults(
  kind: PolicyKind,
  snapshot: readonly { policyName: string; enforcementLevel: string }[] | null,
  results: readonly ReportedResult[],
): MatchedResult[] {
  const violations = new Violations();
  const seen = new Set<string>();
  const levels: readonly string[] = ENFORCEMENT_LEVELS[kind];
  const byName = new Map((snapshot ?? []).map((p) => [p.policyName, p]));
  const matched: MatchedResult[] = [];
  results.forEach((r, i) => {
    const pointer = `/results/${i}`;
    if (seen.has(r.policy)) violations.add(`policy ${r.policy} is reported twice`, `${pointer}/policy`);
    seen.add(r.policy);
    let level: string | undefined;
    if (snapshot) {
      level = byName.get(r.policy)?.enforcementLevel;
      if (!level) violations.add(`policy ${r.policy} was not evaluated in this job`, `${pointer}/policy`);
    } else {
      level = r['enforcement-level'];
      if (!level || !levels.includes(level)) {
        violations.add(
          `enforcement-level must be one of ${levels.join(', ')} for ${kind}`,
          `${pointer}/enforcement-level`,
        );
      }
    }
    if (level)
      matched.push({ name: r.policy, enforcementLevel: level, status: r.status, output: r.output ?? null });
  });
  if (snapshot) {
    const missing = snapshot.filter((p) => !seen.has(p.policyName)).map((p) => p.policyName);
    if (missing.length) violations.add(`no result for ${missing.join(', ')}`, '/results');
  } else if (!results.length) {
    violations.add('a versioned set reports at least one result', '/results');
  }
  violations.throwIfAny();
  return matched;
}

import { DomainError } from '../../common/errors/domain-error';
import {
  checkStatusOf,
  checkVerdict,
  countResults,
  evaluationStatus,
  failureSeverity,
  matchResults,
  NO_RESULTS,
} from './policy-check-rules';

const evaluation = (status: 'passed' | 'failed' | 'errored' | 'running' | 'unreachable', counts = {}) => ({
  ...NO_RESULTS,
  ...counts,
  status,
  policySetName: 'guardrails',
  error: status === 'errored' ? 'engine not installed' : null,
});

describe('policy check rules', () => {
  describe('what a failure weighs', () => {
    it('lets advisory failures only warn, whatever the set', () => {
      expect(failureSeverity('advisory', false)).toBe('advisory');
      expect(failureSeverity('advisory', true)).toBe('advisory');
    });

    it('makes soft-mandatory failures overridable', () => {
      expect(failureSeverity('soft-mandatory', false)).toBe('soft');
    });

    it('makes hard-mandatory and mandatory failures overridable only in an overridable set', () => {
      expect(failureSeverity('hard-mandatory', false)).toBe('hard');
      expect(failureSeverity('mandatory', false)).toBe('hard');
      expect(failureSeverity('hard-mandatory', true)).toBe('soft');
      expect(failureSeverity('mandatory', true)).toBe('soft');
    });
  });

  it('counts results per weight and fails an evaluation only on a mandatory failure', () => {
    const outcomes = [
      { status: 'passed', enforcementLevel: 'hard-mandatory' },
      { status: 'failed', enforcementLevel: 'advisory' },
      { status: 'failed', enforcementLevel: 'soft-mandatory' },
      { status: 'failed', enforcementLevel: 'hard-mandatory' },
      { status: 'pending', enforcementLevel: 'hard-mandatory' },
    ] as const;
    const counts = countResults(outcomes, false);
    expect(counts).toEqual({ passed: 1, advisoryFailed: 1, softFailed: 1, hardFailed: 1 });
    expect(evaluationStatus(counts)).toBe('failed');
    expect(evaluationStatus({ ...NO_RESULTS, passed: 1, advisoryFailed: 3 })).toBe('passed');
  });

  describe('the verdict', () => {
    it('waits while an evaluation is open', () => {
      expect(checkVerdict([evaluation('passed'), evaluation('running')])).toBeNull();
    });

    it('passes with advisory failures and skipped sets', () => {
      expect(checkVerdict([evaluation('passed', { advisoryFailed: 2 }), evaluation('unreachable')])).toEqual({
        verdict: 'passed',
        reason: null,
      });
      expect(checkVerdict([evaluation('unreachable')])).toEqual({ verdict: 'passed', reason: null });
    });

    it('blocks on a failure nobody may override, before one that may be', () => {
      const soft = evaluation('failed', { softFailed: 1 });
      expect(checkVerdict([soft])).toEqual({ verdict: 'overridable', reason: null });
      expect(checkVerdict([soft, evaluation('failed', { hardFailed: 1 })])).toEqual({
        verdict: 'blocked',
        reason: null,
      });
    });

    it('errors, naming the set, when an evaluation errored', () => {
      expect(checkVerdict([evaluation('failed', { hardFailed: 1 }), evaluation('errored')])).toEqual({
        verdict: 'errored',
        reason: 'policy set guardrails: engine not installed',
      });
    });

    it("maps verdicts to the real service's check statuses", () => {
      expect(['passed', 'overridable', 'blocked', 'errored'].map((v) => checkStatusOf(v as never))).toEqual([
        'passed',
        'soft_failed',
        'hard_failed',
        'errored',
      ]);
    });
  });

  describe('matching a report to what was evaluated', () => {
    const snapshot = [
      { policyName: 'tags', enforcementLevel: 'advisory' },
      { policyName: 'size', enforcementLevel: 'hard-mandatory' },
    ];
    const details = (fn: () => unknown) => {
      try {
        fn();
      } catch (err) {
        return (err as DomainError).items.map((i) => [i.detail, i.pointer]);
      }
      throw new Error('no error');
    };

    it("takes the snapshot's levels, not the report's", () => {
      expect(
        matchResults('framework_a', snapshot, [
          { policy: 'size', status: 'failed', 'enforcement-level': 'advisory', output: 'too big' },
          { policy: 'tags', status: 'passed' },
        ]),
      ).toEqual([
        { name: 'size', enforcementLevel: 'hard-mandatory', status: 'failed', output: 'too big' },
        { name: 'tags', enforcementLevel: 'advisory', status: 'passed', output: null },
      ]);
    });

    it('refuses unknown, repeated and missing policies, one item each', () => {
      expect(
        details(() =>
          matchResults('framework_a', snapshot, [
            { policy: 'tags', status: 'passed' },
            { policy: 'tags', status: 'failed' },
            { policy: 'other', status: 'passed' },
          ]),
        ),
      ).toEqual([
        ['policy tags is reported twice', '/results/1/policy'],
        ['policy other was not evaluated in this job', '/results/2/policy'],
        ['no result for size', '/results'],
      ]);
    });

    it("takes a versioned set's levels from the report, within the kind's levels", () => {
      expect(
        matchResults('framework_b', null, [
          { policy: 'p', status: 'failed', 'enforcement-level': 'mandatory' },
        ]),
      ).toEqual([{ name: 'p', enforcementLevel: 'mandatory', status: 'failed', output: null }]);
      expect(
        details(() =>
          matchResults('framework_b', null, [
            { policy: 'p', status: 'failed', 'enforcement-level': 'soft-mandatory' },
          ]),
        ),
      ).toEqual([
        [
          'enforcement-level must be one of advisory, mandatory for framework_b',
          '/results/0/enforcement-level',
        ],
      ]);
      expect(details(() => matchResults('framework_a', null, []))).toEqual([
        ['a versioned set reports at least one result', '/results'],
      ]);
    });
  });
});

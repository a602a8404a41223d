import {
  afterPolicyCheck,
  afterReport,
  availableActions,
  cancelEffect,
  holdsQueue,
  isFinal,
  isPhaseEnded,
  JobReport,
  levelAllows,
  nextToStart,
  PhaseStatus,
  QueuedRun,
  RunState,
  startsAtOnce,
  timestampKey,
} from './run-rules';

const NOW = new Date('2026-01-01T00:00:00Z');
const state = (status: RunState['status'], extra: Partial<RunState> = {}): RunState => ({
  status,
  planOnly: false,
  cancelRequested: false,
  forceCancelAvailableAt: null,
  ...extra,
});
const report = (extra: Partial<JobReport> = {}): JobReport => ({
  status: 'finished',
  errorMessage: null,
  hasChanges: true,
  resourceAdditions: 1,
  resourceChanges: 0,
  resourceDestructions: 0,
  resourceImports: 0,
  ...extra,
});
const queued = (id: string, status: QueuedRun['status'], planOnly = false, savePlan = false): QueuedRun => ({
  id,
  status,
  planOnly,
  savePlan,
});

describe('run rules', () => {
  describe('the queue', () => {
    it('starts the oldest pending run when nothing holds the workspace', () => {
      expect(nextToStart([queued('a', 'pending'), queued('b', 'pending')], false)).toBe('a');
    });

    it.each(['plan_queued', 'planning', 'planned', 'apply_queued', 'applying'] as const)(
      'starts nothing while a run that may apply is %s',
      (status) => {
        expect(nextToStart([queued('a', status), queued('b', 'pending')], false)).toBeNull();
      },
    );

    it('lets a saved plan hold nothing until it is applied', () => {
      for (const status of ['plan_queued', 'planning', 'policy_checking', 'planned_and_saved'] as const) {
        expect(nextToStart([queued('a', status, false, true), queued('b', 'pending')], false)).toBe('b');
      }
      for (const status of ['apply_queued', 'applying'] as const) {
        expect(nextToStart([queued('a', status, false, true), queued('b', 'pending')], false)).toBeNull();
      }
    });

    it('lets plan-only runs in progress hold nothing', () => {
      expect(nextToStart([queued('a', 'planning', true), queued('b', 'pending')], false)).toBe('b');
    });

    it('starts nothing in a locked workspace', () => {
      expect(nextToStart([queued('a', 'pending')], true)).toBeNull();
    });

    it('starts nothing when nothing waits', () => {
      expect(nextToStart([], false)).toBeNull();
    });
  });

  describe('actions', () => {
    it('offers confirm and discard only to a planned run that may apply', () => {
      expect(availableActions(state('planned'), NOW)).toEqual({
        apply: true,
        discard: true,
        cancel: false,
        'force-cancel': false,
      });
      expect(availableActions(state('planned', { planOnly: true }), NOW).apply).toBe(false);
      expect(availableActions(state('pending'), NOW)).toEqual({
        apply: false,
        discard: false,
        cancel: true,
        'force-cancel': false,
      });
    });

    it('offers a running run one cancel, then force-cancel once the cool-off passed', () => {
      expect(availableActions(state('planning'), NOW).cancel).toBe(true);
      const asked = state('applying', {
        cancelRequested: true,
        forceCancelAvailableAt: new Date(NOW.getTime() + 1),
      });
      expect(availableActions(asked, NOW)).toMatchObject({ cancel: false, 'force-cancel': false });
      expect(availableActions({ ...asked, forceCancelAvailableAt: NOW }, NOW)['force-cancel']).toBe(true);
    });

    it.each([
      'applied',
      'discarded',
      'errored',
      'canceled',
      'force_canceled',
      'planned_and_finished',
      'policy_soft_failed',
    ] as const)('offers nothing on a %s run', (status) => {
      expect(Object.values(availableActions(state(status), NOW))).toEqual([false, false, false, false]);
    });

    it('ends waiting runs at once and asks running ones to stop', () => {
      expect(cancelEffect('pending')).toBe('end');
      expect(cancelEffect('apply_queued')).toBe('end');
      expect(cancelEffect('planning')).toBe('request');
      expect(cancelEffect('applying')).toBe('request');
    });

    it('ranks access levels: read < plan < write < admin', () => {
      expect(levelAllows('plan', 'read')).toBe(true);
      expect(levelAllows('plan', 'write')).toBe(false);
      expect(levelAllows('admin', 'write')).toBe(true);
      expect(levelAllows(null, 'read')).toBe(false);
    });
  });

  describe('after a report', () => {
    const run = {
      planOnly: false,
      autoApply: false,
      cancelRequested: false,
      savePlan: false,
      allowEmptyApply: false,
    };

    it('pauses a plan with changes for confirmation, or queues the apply with auto-apply', () => {
      expect(afterReport('plan', report(), run)).toBe('planned');
      expect(afterReport('plan', report(), { ...run, autoApply: true })).toBe('apply_queued');
    });

    it('finishes a plan without changes and any plan-only plan', () => {
      expect(afterReport('plan', report({ hasChanges: false }), run)).toBe('planned_and_finished');
      expect(afterReport('plan', report(), { ...run, planOnly: true })).toBe('planned_and_finished');
    });

    it('applies, errors, or cancels when a cancel was asked for', () => {
      expect(afterReport('apply', report(), run)).toBe('applied');
      expect(afterReport('apply', report({ status: 'errored' }), run)).toBe('errored');
      expect(afterReport('plan', report(), { ...run, cancelRequested: true })).toBe('canceled');
    });
  });

  describe('saved plans and empty applies', () => {
    const run = {
      planOnly: false,
      autoApply: false,
      cancelRequested: false,
      savePlan: true,
      allowEmptyApply: false,
    };

    it('stops a saved plan with changes in planned_and_saved, even with auto-apply', () => {
      expect(afterReport('plan', report(), run)).toBe('planned_and_saved');
      expect(afterReport('plan', report(), { ...run, autoApply: true })).toBe('planned_and_saved');
      expect(afterReport('plan', report({ hasChanges: false }), run)).toBe('planned_and_finished');
      expect(afterPolicyCheck('passed', { ...run, hasChanges: true })).toBe('planned_and_saved');
    });

    it('lets a plan without changes wait for confirmation when an empty apply is allowed', () => {
      const empty = report({ hasChanges: false });
      expect(afterReport('plan', empty, { ...run, savePlan: false, allowEmptyApply: true })).toBe('planned');
      expect(afterReport('plan', empty, { ...run, allowEmptyApply: true })).toBe('planned_and_saved');
      expect(afterReport('plan', empty, { ...run, planOnly: true, allowEmptyApply: true })).toBe(
        'planned_and_finished',
      );
    });

    it('may apply or discard a saved plan, not cancel it; it is not final', () => {
      expect(availableActions(state('planned_and_saved'), NOW)).toEqual({
        apply: true,
        discard: true,
        cancel: false,
        'force-cancel': false,
      });
      expect(isFinal('planned_and_saved')).toBe(false);
      expect(startsAtOnce({ planOnly: false, savePlan: true })).toBe(true);
      expect(holdsQueue(queued('a', 'planned_and_saved', false, true))).toBe(false);
    });
  });

  describe('policy checks', () => {
    const run = {
      planOnly: false,
      autoApply: false,
      hasChanges: true,
      savePlan: false,
      allowEmptyApply: false,
    };

    it('holds the queue while a run is checked or waits for an override', () => {
      for (const status of ['policy_checking', 'policy_checked', 'policy_override'] as const) {
        expect(nextToStart([queued('a', status), queued('b', 'pending')], false)).toBeNull();
      }
    });

    it('confirms a checked run like a planned one, and discards or cancels a checking or waiting one', () => {
      expect(availableActions(state('policy_checked'), NOW)).toEqual({
        apply: true,
        discard: true,
        cancel: false,
        'force-cancel': false,
      });
      for (const status of ['policy_checking', 'policy_override'] as const) {
        expect(availableActions(state(status), NOW)).toEqual({
          apply: false,
          discard: true,
          cancel: true,
          'force-cancel': false,
        });
        expect(cancelEffect(status)).toBe('end');
      }
    });

    it('waits for confirmation after a pass, or queues the apply with auto-apply', () => {
      expect(afterPolicyCheck('passed', run)).toBe('policy_checked');
      expect(afterPolicyCheck('passed', { ...run, autoApply: true })).toBe('apply_queued');
    });

    it('finishes a passing plan-only run or one without changes', () => {
      expect(afterPolicyCheck('passed', { ...run, planOnly: true })).toBe('planned_and_finished');
      expect(afterPolicyCheck('passed', { ...run, hasChanges: false })).toBe('planned_and_finished');
    });

    it('waits for an override after an overridable failure; a plan-only run ends soft-failed', () => {
      expect(afterPolicyCheck('overridable', run)).toBe('policy_override');
      expect(afterPolicyCheck('overridable', { ...run, planOnly: true })).toBe('policy_soft_failed');
    });

    it('errors the run on a failure nobody may override, as the real service does', () => {
      expect(afterPolicyCheck('blocked', run)).toBe('errored');
      expect(afterPolicyCheck('blocked', { ...run, planOnly: true })).toBe('errored');
    });
  });

  it('tells a phase that can no longer start from one that may still be queued or running', () => {
    const ended: PhaseStatus[] = ['finished', 'errored', 'canceled'];
    const open: PhaseStatus[] = ['pending', 'queued', 'running'];
    expect(ended.every(isPhaseEnded)).toBe(true);
    expect(open.some(isPhaseEnded)).toBe(false);
  });

  it('names status timestamps as the real service does', () => {
    expect(timestampKey('planned_and_finished')).toBe('planned-and-finished-at');
    expect(timestampKey('force_canceled')).toBe('force-canceled-at');
  });
});

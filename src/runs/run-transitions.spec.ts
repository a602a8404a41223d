import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  AFTER_CANCEL_REQUEST,
  afterPlan,
  afterPolicyCheck,
  afterReport,
  assertRunMove,
  availableActions,
  canMove,
  cancelEffect,
  FINAL_STATUSES,
  IllegalTransitionError,
  isPhaseEnded,
  JobReport,
  nextStatuses,
  PHASE_STATUSES,
  PHASE_TIMESTAMP_KEYS,
  phaseMovesInto,
  PhaseKind,
  PolicyVerdict,
  RUN_STATUSES,
  RUN_TRANSITIONS,
  RunAction,
  RunStatus,
} from './run-rules';

const NOW = new Date('2026-01-01T00:00:00Z');
const BOOLS = [false, true];
const VERDICTS: PolicyVerdict[] = ['passed', 'overridable', 'blocked', 'errored'];

/** What each action moves a run to (a cancel of a running run first waits for its executor). */
const ACTION_TARGETS: Record<RunAction, RunStatus> = {
  apply: 'apply_queued',
  discard: 'discarded',
  cancel: 'canceled',
  'force-cancel': 'force_canceled',
};

const report = (status: JobReport['status'], hasChanges: boolean): JobReport => ({
  status,
  errorMessage: status === 'errored' ? 'failed' : null,
  hasChanges,
  resourceAdditions: 0,
  resourceChanges: 0,
  resourceDestructions: 0,
  resourceImports: 0,
});

/** 'legal', or the move the table refuses (so a failure names it). */
const move = (from: RunStatus, to: RunStatus): string => (canMove(from, to) ? 'legal' : `${from} → ${to}`);

/** Every combination of the flags the rules read. */
function* flags() {
  for (const planOnly of BOOLS)
    for (const autoApply of BOOLS)
      for (const cancelRequested of BOOLS)
        for (const hasChanges of BOOLS)
          for (const savePlan of BOOLS)
            for (const allowEmptyApply of BOOLS)
              yield { planOnly, autoApply, cancelRequested, hasChanges, savePlan, allowEmptyApply };
}

describe('the run transition table', () => {
  it('names every status once, and its final statuses are exactly those nothing follows', () => {
    expect(Object.keys(RUN_TRANSITIONS).sort()).toEqual([...RUN_STATUSES].sort());
    expect([...FINAL_STATUSES].sort()).toEqual([
      'applied',
      'canceled',
      'discarded',
      'errored',
      'force_canceled',
      'planned_and_finished',
      'policy_soft_failed',
    ]);
  });

  it('answers what can follow a status from the one table', () => {
    expect(nextStatuses('planned')).toEqual(['apply_queued', 'discarded']);
    expect(nextStatuses('applied')).toEqual([]);
    expect(canMove('planning', 'planned')).toBe(true);
    expect(canMove('planned', 'planning')).toBe(false);
  });

  it('reaches every status from pending, and a final status from every status', () => {
    const reached = new Set<RunStatus>(['pending']);
    for (let grew = true; grew;) {
      grew = false;
      for (const from of [...reached])
        for (const to of nextStatuses(from))
          if (!reached.has(to)) {
            reached.add(to);
            grew = true;
          }
    }
    expect([...reached].sort()).toEqual([...RUN_STATUSES].sort());
    const ends = (s: RunStatus, seen = new Set<RunStatus>()): boolean =>
      FINAL_STATUSES.includes(s) ||
      (!seen.has(s) && nextStatuses(s).some((n) => ends(n, new Set([...seen, s]))));
    expect(RUN_STATUSES.filter((s) => !ends(s))).toEqual([]);
  });

  it('treats a move it does not list as a programming error', () => {
    expect(() => assertRunMove('planned', 'planning')).toThrow(IllegalTransitionError);
    expect(() => assertRunMove('applied', 'canceled')).toThrow('a run cannot move from applied to canceled');
    expect(() => assertRunMove('planned', 'discarded')).not.toThrow();
  });

  it('lets a run with an accepted cancel only stop, from either running status', () => {
    for (const to of AFTER_CANCEL_REQUEST) {
      expect(FINAL_STATUSES).toContain(to);
      expect([canMove('planning', to), canMove('applying', to)]).toEqual([true, true]);
    }
  });

  describe('allows every move the rules can ask for', () => {
    it.each(RUN_STATUSES)('each action available while %s', (status) => {
      for (const cancelRequested of BOOLS)
        for (const planOnly of BOOLS) {
          const state = { status, planOnly, cancelRequested, forceCancelAvailableAt: NOW };
          const actions = availableActions(state, NOW);
          for (const action of Object.keys(actions) as RunAction[]) {
            if (!actions[action]) continue;
            // A cancel of a running run only marks it; its report then ends it canceled (below).
            if (action === 'cancel' && cancelEffect(status) === 'request') continue;
            expect(move(status, ACTION_TARGETS[action])).toBe('legal');
          }
        }
    });

    it.each([
      ['plan', 'planning'],
      ['apply', 'applying'],
    ] as [PhaseKind, RunStatus][])('every report of a %s job while %s', (kind, from) => {
      for (const f of flags())
        for (const status of ['finished', 'errored'] as const) {
          const to = afterReport(kind, report(status, f.hasChanges), f);
          expect(move(from, to)).toBe('legal');
          if (f.cancelRequested) expect(AFTER_CANCEL_REQUEST).toContain(to);
        }
      // A plan that finished goes to its policy check first when policy sets apply.
      if (kind === 'plan') expect(move(from, 'policy_checking')).toBe('legal');
    });

    it('every policy verdict, and the apply that follows a check', () => {
      for (const f of flags())
        for (const verdict of VERDICTS) {
          const to = afterPolicyCheck(verdict, f);
          // A check that passes into an apply is stamped policy_checked on its way.
          const path: RunStatus[] =
            to === 'apply_queued'
              ? ['policy_checking', 'policy_checked', 'apply_queued']
              : ['policy_checking', to];
          for (let i = 1; i < path.length; i++) expect(move(path[i - 1], path[i])).toBe('legal');
        }
      for (const f of flags()) {
        const after = afterPlan(f, f.hasChanges, 'policy_checked');
        expect(['policy_checked', 'planned_and_finished', 'planned_and_saved', 'apply_queued']).toContain(
          after,
        );
        expect(move('policy_override', 'policy_checked')).toBe('legal');
        if (after === 'apply_queued') expect(move('policy_checked', 'apply_queued')).toBe('legal');
      }
    });
  });
});

describe('the phase transition table', () => {
  it('moves a phase into a status only from those the table lists before it', () => {
    expect(phaseMovesInto('queued')).toEqual(['pending']);
    expect(phaseMovesInto('running')).toEqual(['queued']);
    expect(phaseMovesInto('finished')).toEqual(['running']);
    expect(phaseMovesInto('canceled')).toEqual(['queued', 'running']);
    expect(phaseMovesInto('errored')).toEqual(['queued', 'running']);
    expect(() => phaseMovesInto('pending')).toThrow(IllegalTransitionError);
  });

  it('stamps each status a phase moves to, and never moves an ended phase', () => {
    for (const s of PHASE_STATUSES)
      if (s !== 'pending') expect(PHASE_TIMESTAMP_KEYS[s]).toMatch(/^[a-z]+-at$/);
    expect(PHASE_STATUSES.filter(isPhaseEnded)).toEqual(['finished', 'errored', 'canceled']);
  });
});

const DOC = join(__dirname, '..', '..', 'docs', 'runs.md');
const BEGIN = '<!-- run states: generated from RUN_TRANSITIONS in src/runs/run-rules.ts -->';
const END = '<!-- end of run states -->';

/** The diagram docs/runs.md shows: every move of the table, with what makes it. */
function diagram(): string {
  const lines = ['```mermaid', 'stateDiagram-v2', '  [*] --> pending'];
  for (const from of RUN_STATUSES) {
    for (const [to, why] of Object.entries(RUN_TRANSITIONS[from])) lines.push(`  ${from} --> ${to}: ${why}`);
  }
  for (const s of FINAL_STATUSES) lines.push(`  ${s} --> [*]`);
  lines.push('```');
  return lines.join('\n');
}

describe('docs/runs.md', () => {
  it('draws the run states from the table (WRITE_DOCS=1 redraws them)', () => {
    const doc = readFileSync(DOC, 'utf8');
    const start = doc.indexOf(BEGIN);
    const end = doc.indexOf(END);
    expect([start >= 0, end > start]).toEqual([true, true]);
    const drawn = doc.slice(start + BEGIN.length, end).trim();
    if (drawn !== diagram() && process.env.WRITE_DOCS === '1') {
      writeFileSync(DOC, `${doc.slice(0, start + BEGIN.length)}\n${diagram()}\n${doc.slice(end)}`);
      return;
    }
    expect(drawn).toBe(diagram());
  });
});

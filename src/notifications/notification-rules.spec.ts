import { createHmac } from 'node:crypto';
import { RUN_STATUSES } from '../runs/run-rules';
import { backoffMs, outcomeOf, raisedBy, signature } from './notification-rules';

describe('raisedBy', () => {
  const run = (status: (typeof RUN_STATUSES)[number], extra = {}) => ({
    status,
    planOnly: false,
    autoApply: false,
    ...extra,
  });

  it('maps run statuses to the real service triggers', () => {
    const triggers = Object.fromEntries(
      RUN_STATUSES.map((s) => [s, raisedBy(run(s), false)?.trigger ?? null]),
    );
    expect(triggers).toEqual({
      pending: null,
      plan_queued: null,
      planning: 'run:planning',
      planned: 'run:needs_attention',
      policy_checking: null,
      policy_checked: 'run:needs_attention',
      policy_override: 'run:needs_attention',
      policy_soft_failed: null,
      planned_and_finished: 'run:completed',
      planned_and_saved: null,
      apply_queued: null,
      applying: 'run:applying',
      applied: 'run:completed',
      discarded: 'run:completed',
      errored: 'run:errored',
      canceled: 'run:errored',
      force_canceled: 'run:errored',
    });
    expect(raisedBy(run('pending'), true)).toEqual({
      trigger: 'run:created',
      triggerType: 'run:created',
      message: 'Run Created',
    });
  });

  it('raises nothing for speculative runs, nor for a passed check that applies by itself', () => {
    for (const s of RUN_STATUSES) expect(raisedBy(run(s, { planOnly: true }), false)).toBeNull();
    expect(raisedBy(run('pending', { planOnly: true }), true)).toBeNull();
    expect(raisedBy(run('policy_checked', { autoApply: true }), false)).toBeNull();
  });
});

describe('delivery rules', () => {
  it('retries 429, 5xx and no answer; other answers are final or delivered', () => {
    expect([200, 204, 301, 400, 404, 410, 429, 500, 503, null].map(outcomeOf)).toEqual([
      'delivered',
      'delivered',
      'final',
      'final',
      'final',
      'final',
      'retry',
      'retry',
      'retry',
      'retry',
    ]);
  });

  it('backs off exponentially with jitter in the upper half of each step, capped', () => {
    expect(backoffMs(1, 1000, 60_000, () => 0)).toBe(500);
    expect(backoffMs(1, 1000, 60_000, () => 1)).toBe(1000);
    expect(backoffMs(3, 1000, 60_000, () => 1)).toBe(4000);
    expect(backoffMs(20, 1000, 60_000, () => 1)).toBe(60_000);
  });

  it('signs with lowercase hex HMAC-SHA512 of the body under the token', () => {
    const body = '{"payload_version":1}';
    expect(signature('tok', body)).toBe(createHmac('sha512', 'tok').update(body).digest('hex'));
    expect(signature('tok', body)).toMatch(/^[0-9a-f]{128}$/);
  });
});

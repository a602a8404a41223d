import { RunEntity } from './entities/run.entity';
import { newJob, newPhase, phasesAfterReport, stamped, takenPhase } from './run-queue.rows';

const run = Object.assign(new RunEntity(), { id: 'run-1', planId: 'plan-1', applyId: 'apply-1' });
const ws = { organizationId: 'org-1', agentPoolId: 'apool-1' };
const made = new Date('2026-11-28T10:00:00.123Z');
const taker = { agentId: 'agent-1', poolId: 'apool-2' };

describe('the run queue rows', () => {
  it('stamps a key onto status-timestamps, keeping the others, to the second with an offset', () => {
    const once = stamped('{}', 'queued-at', made);
    expect(JSON.parse(stamped(once, 'running-at', new Date('2026-11-28T10:00:05Z')))).toEqual({
      'queued-at': '2026-11-28T10:00:00+00:00',
      'running-at': '2026-11-28T10:00:05+00:00',
    });
  });

  it('makes a pending phase with no timestamps, no agent and no counts yet', () => {
    const plan = newPhase('plan', made);
    expect(plan).toMatchObject({
      runId: '',
      kind: 'plan',
      status: 'pending',
      statusTimestamps: '{}',
      agentId: null,
      agentPoolId: null,
      resourceAdditions: 0,
      createdAt: made,
      updatedAt: made,
    });
    expect(plan.id).toMatch(/^plan-/);
    expect(newPhase('apply', made).id).toMatch(/^apply-/);
  });

  it('leaves a phase taken at once running, queued and started at the same second, on the taker', () => {
    const phase = takenPhase(taker, made);
    expect(phase).toMatchObject({ status: 'running', agentId: 'agent-1', agentPoolId: 'apool-2' });
    expect(JSON.parse(phase.statusTimestamps)).toEqual({
      'queued-at': '2026-11-28T10:00:00+00:00',
      'started-at': '2026-11-28T10:00:00+00:00',
    });
  });

  it('makes a queued job for the workspace pool, with no claim', () => {
    const job = newJob(run, 'plan', { phaseId: 'plan-1', evaluationId: null }, ws, made);
    expect(job).toMatchObject({
      runId: 'run-1',
      kind: 'plan',
      phaseId: 'plan-1',
      evaluationId: null,
      status: 'queued',
      organizationId: 'org-1',
      agentPoolId: 'apool-1',
      agentId: null,
      claimedAt: null,
      heartbeatAt: null,
      createdAt: made,
    });
    expect(job.id).toMatch(/^job-/);
  });

  it('makes a job taken at once claimed by its taker, its heartbeat at the claim', () => {
    const at = new Date('2026-11-28T10:00:01Z');
    const job = newJob(run, 'apply', { phaseId: 'apply-1', evaluationId: null }, ws, made, { taker, at });
    expect(job).toMatchObject({ status: 'claimed', agentId: 'agent-1', claimedAt: at, heartbeatAt: at });
    // The job stays the workspace pool's: the taker serves that scope.
    expect(job.agentPoolId).toBe('apool-1');
  });

  it('after a plan report, only the apply may still need ending, as it was inserted; after an apply, none', () => {
    expect(phasesAfterReport(run, 'plan')).toEqual([
      { id: 'apply-1', status: 'pending', statusTimestamps: '{}' },
    ]);
    expect(phasesAfterReport(run, 'apply')).toEqual([]);
  });
});

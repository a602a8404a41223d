import { JobSignals } from '../../src/runs/protocol/job-signals.service';
import { agentCall } from '../agent-pools/helpers';
import { until } from '../helpers/partial-upload';
import { TestApp } from '../helpers/test-app';
import { Executor } from './run-fixtures';

/** A claim that waits up to `seconds` for a job. */
export function waitingClaim(t: TestApp, ex: Executor, seconds: number | string) {
  return agentCall(t, `/jobs/claim?wait=${seconds}`, ex.secret, ex.agentId).send({});
}

/** Resolves once `count` claims wait on the node. */
export function waitersOn(t: TestApp, count: number): Promise<true> {
  const waiters = t.app.get(JobSignals).waiters;
  return until(`${count} claim(s) wait`, () => Promise.resolve(waiters.size === count || undefined), 10_000);
}

/** The claim answer's job, in the fields a waiting executor checks. */
export function claimedJob(runId: string, workspaceId: string, organization: string) {
  return {
    job: expect.objectContaining({
      id: expect.stringMatching(/^job-[0-9A-Za-z]{16}$/),
      kind: 'plan',
      'run-id': runId,
      'workspace-id': workspaceId,
      organization,
      'plan-only': true,
      'heartbeat-interval-seconds': 10,
      links: expect.objectContaining({ configuration: expect.any(String), logs: expect.any(String) }),
    }),
  };
}

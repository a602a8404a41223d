import {
  Actor,
  addToTeam,
  bootstrapAdmin,
  createOrganization,
  createTeam,
  createUser,
  createWorkspace,
  grantWorkspace,
  ISO_MILLIS,
  unique,
} from '../helpers/fixtures';
import { TestApp } from '../helpers/test-app';
import {
  claimJob,
  createRun,
  executor,
  Executor,
  PLANNED_WITH_CHANGES,
  runStatus,
  uploadedVersion,
} from '../runs/run-fixtures';
import { createConfiguration, startNotificationApp, Tripwire } from './notification-fixtures';
import { Receiver } from './receiver';

jest.setTimeout(60_000);

/** `run_updated_by`: the username of whoever made the move, null when an executor made it. */
describe('notification payloads name who moved the run', () => {
  let t: TestApp;
  let admin: Actor;
  let operator: Actor;
  let operatorName: string;
  let org: string;
  let ws: string;
  let ex: Executor;
  let r: Receiver;
  let nc: string;

  /** The one notification of this run and trigger, once it arrived. */
  async function notification(runId: string, trigger: string): Promise<Record<string, unknown>> {
    for (let i = 0; i < 400; i++) {
      const found = r.received.find(
        (x) =>
          x.body.run_id === runId && (x.body.notifications as { trigger: string }[])[0].trigger === trigger,
      );
      if (found) return found.body;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`no ${trigger} notification of ${runId} arrived`);
  }

  const expected = (runId: string, createdBy: string, n: Record<string, unknown>) => ({
    payload_version: 1,
    notification_configuration_id: nc,
    run_url: expect.stringMatching(new RegExp(`/api/v2/runs/${runId}$`)),
    run_id: runId,
    run_message: expect.any(String),
    run_created_at: expect.stringMatching(ISO_MILLIS),
    run_created_by: createdBy,
    workspace_id: ws,
    workspace_name: expect.any(String),
    organization_name: org,
    notifications: [{ run_updated_at: expect.stringMatching(ISO_MILLIS), ...n }],
  });

  beforeAll(async () => {
    t = await startNotificationApp(new Tripwire());
    admin = await bootstrapAdmin(t);
    org = await createOrganization(admin);
    ws = await createWorkspace(admin, org);
    await uploadedVersion(t, admin, ws);
    ex = await executor(t, admin, org);
    operatorName = unique('operator');
    operator = await createUser(t, admin, operatorName);
    const team = await createTeam(admin, org);
    await addToTeam(admin, team, operator.userId!);
    await grantWorkspace(admin, team, ws, 'admin');
    r = await new Receiver().start();
    nc = await createConfiguration(admin, ws, {
      name: 'who',
      'destination-type': 'generic',
      enabled: true,
      url: r.url,
      triggers: ['run:created', 'run:needs_attention', 'run:completed', 'run:errored'],
    });
  });
  afterAll(async () => {
    await r.stop();
    await t.close();
  });

  it('names the creator of run:created, nobody for an executor’s move, the user who discarded', async () => {
    const run = await createRun(admin, ws);
    await ex.finish((await claimJob(ex)).id, PLANNED_WITH_CHANGES).expect(204);
    await operator.api.post(`/api/v2/runs/${run.id}/actions/discard`, {}).expect(202);
    expect(await runStatus(admin, run.id)).toBe('discarded');

    expect(await notification(run.id, 'run:created')).toEqual(
      expected(run.id, 'admin', {
        message: 'Run Created',
        trigger: 'run:created',
        trigger_type: 'run:created',
        run_status: 'pending',
        run_updated_by: 'admin',
      }),
    );
    expect(await notification(run.id, 'run:needs_attention')).toEqual(
      expected(run.id, 'admin', {
        message: 'Run Needs Attention',
        trigger: 'run:needs_attention',
        trigger_type: 'run:pending_apply_approval',
        run_status: 'planned',
        run_updated_by: null,
      }),
    );
    expect(await notification(run.id, 'run:completed')).toEqual(
      expected(run.id, 'admin', {
        message: 'Run Discarded',
        trigger: 'run:completed',
        trigger_type: 'run:completed',
        run_status: 'discarded',
        run_updated_by: operatorName,
      }),
    );
  });

  it('names the user who canceled a queued run, and the creator who is not the canceler', async () => {
    const run = await createRun(operator, ws);
    expect(await runStatus(admin, run.id)).toBe('plan_queued');
    await admin.api.post(`/api/v2/runs/${run.id}/actions/cancel`, {}).expect(202);
    expect(await runStatus(admin, run.id)).toBe('canceled');

    expect(await notification(run.id, 'run:created')).toEqual(
      expected(run.id, operatorName, {
        message: 'Run Created',
        trigger: 'run:created',
        trigger_type: 'run:created',
        run_status: 'pending',
        run_updated_by: operatorName,
      }),
    );
    expect(await notification(run.id, 'run:errored')).toEqual(
      expected(run.id, operatorName, {
        message: 'Run Canceled',
        trigger: 'run:errored',
        trigger_type: 'run:run_canceled',
        run_status: 'canceled',
        run_updated_by: 'admin',
      }),
    );
  });
});

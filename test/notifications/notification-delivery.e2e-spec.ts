import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createWorkspace,
  idOf,
  ISO_MILLIS,
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
import { createConfiguration, FAKE_HOSTS, startNotificationApp, Tripwire } from './notification-fixtures';
import { Receiver } from './receiver';

jest.setTimeout(60_000);

const ALL_RUN_TRIGGERS = [
  'run:created',
  'run:planning',
  'run:needs_attention',
  'run:applying',
  'run:completed',
  'run:errored',
];

describe('notification delivery', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;
  let ws: string;
  let ex: Executor;
  const tripwire = new Tripwire();
  const receivers: Receiver[] = [];

  async function receiver(token: string | null = null): Promise<Receiver> {
    const r = await new Receiver(token).start();
    receivers.push(r);
    return r;
  }

  /** Requests about this run, by trigger. */
  const about = (r: Receiver, runId: string) => r.received.filter((x) => x.body.run_id === runId);

  beforeAll(async () => {
    t = await startNotificationApp(tripwire, { NOTIFICATION_TIMEOUT_MS: '1000' });
    admin = await bootstrapAdmin(t);
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.stop()));
    await t.close();
  });
  beforeEach(async () => {
    tripwire.armed = false;
    org = await createOrganization(admin);
    ex = await executor(t, admin, org);
    ws = await createWorkspace(admin, org);
    await uploadedVersion(t, admin, ws);
  });

  it('sends each run trigger, signed, in the generic payload of the real service', async () => {
    const r = await receiver('hook-token');
    const nc = await createConfiguration(admin, ws, {
      name: 'all',
      'destination-type': 'generic',
      enabled: true,
      url: r.url,
      token: 'hook-token',
      triggers: ALL_RUN_TRIGGERS,
    });
    const run = await createRun(admin, ws, { message: 'ship the change' });
    const plan = await claimJob(ex);
    await ex.finish(plan.id, PLANNED_WITH_CHANGES).expect(204);
    await admin.api.post(`/api/v2/runs/${run.id}/actions/apply`, {}).expect(202);
    const apply = await claimJob(ex);
    await ex.finish(apply.id, { status: 'finished', 'resource-additions': 2 }).expect(204);
    expect(await runStatus(admin, run.id)).toBe('applied');
    await r.waitFor(6);

    const sent = about(r, run.id);
    const byTrigger = Object.fromEntries(
      sent.map((x) => [(x.body.notifications as { trigger: string }[])[0].trigger, x]),
    );
    expect(Object.keys(byTrigger).sort()).toEqual([
      'run:applying',
      'run:completed',
      'run:created',
      'run:needs_attention',
      'run:planning',
    ]);
    for (const x of sent) {
      expect(x.signatureValid).toBe(true);
      expect(x.headers['x-tfe-notification-signature']).toMatch(/^[0-9a-f]{128}$/);
      expect(x.headers['x-plinth-delivery']).toMatch(idOf('ncd'));
      expect(x.headers['content-type']).toBe('application/json');
    }
    expect(new Set(sent.map((x) => x.headers['x-plinth-delivery'])).size).toBe(5);
    expect(byTrigger['run:completed'].body).toEqual({
      payload_version: 1,
      notification_configuration_id: nc,
      run_url: expect.stringMatching(new RegExp(`/api/v2/runs/${run.id}$`)),
      run_id: run.id,
      run_message: 'ship the change',
      run_created_at: expect.stringMatching(ISO_MILLIS),
      run_created_by: 'admin',
      workspace_id: ws,
      workspace_name: expect.any(String),
      organization_name: org,
      notifications: [
        {
          message: 'Run Applied',
          trigger: 'run:completed',
          trigger_type: 'run:completed',
          run_status: 'applied',
          run_updated_at: expect.stringMatching(ISO_MILLIS),
          run_updated_by: null,
        },
      ],
    });
    expect(byTrigger['run:needs_attention'].body.notifications).toEqual([
      expect.objectContaining({ trigger_type: 'run:pending_apply_approval', run_status: 'planned' }),
    ]);

    const errored = await createRun(admin, ws);
    await ex.finish((await claimJob(ex)).id, { status: 'errored', 'error-message': 'boom' }).expect(204);
    await r.waitFor(9);
    expect(
      about(r, errored.id)
        .map((x) => (x.body.notifications as { trigger: string }[])[0].trigger)
        .sort(),
    ).toEqual(['run:created', 'run:errored', 'run:planning']);
  });

  it('sends only the triggers a configuration subscribes to, and nothing for speculative runs', async () => {
    const r = await receiver();
    await createConfiguration(admin, ws, {
      name: 'created only',
      'destination-type': 'generic',
      enabled: true,
      url: r.url,
      triggers: ['run:created'],
    });
    const speculative = await createRun(admin, ws, { 'plan-only': true });
    await ex.finish((await claimJob(ex)).id, PLANNED_WITH_CHANGES).expect(204);
    expect(await runStatus(admin, speculative.id)).toBe('planned_and_finished');
    const real = await createRun(admin, ws);
    await ex.finish((await claimJob(ex)).id, { status: 'errored', 'error-message': 'x' }).expect(204);
    const marker = await createRun(admin, ws);
    // Each delivery is claimed as soon as it is due; the last run's arrival means the others were seen.
    await r.waitFor(3);
    await new Promise<void>((resolve) => {
      const check = () => (about(r, marker.id).length ? resolve() : setTimeout(check, 20));
      check();
    });
    expect(about(r, speculative.id)).toEqual([]);
    expect(about(r, real.id).map((x) => (x.body.notifications as { trigger: string }[])[0].trigger)).toEqual([
      'run:created',
    ]);
  });

  it('retries a delivery after two failures, with the same delivery id', async () => {
    const r = await receiver('k');
    const nc = await createConfiguration(admin, ws, {
      name: 'flaky',
      'destination-type': 'generic',
      enabled: true,
      url: r.url,
      token: 'k',
      triggers: ['run:created'],
    });
    r.reply(500, 503);
    const run = await createRun(admin, ws);
    await r.waitFor(4);
    const attempts = about(r, run.id);
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((x) => x.headers['x-plinth-delivery'])).size).toBe(1);
    expect(attempts.every((x) => x.signatureValid)).toBe(true);
    expect(attempts.map((x) => x.raw)).toEqual([attempts[0].raw, attempts[0].raw, attempts[0].raw]);
    await eventually(async () => {
      const shown = await admin.api.get(`/api/v2/notification-configurations/${nc}`).expect(200);
      const codes = shown.body.data.attributes['delivery-responses'].map((d: { code: string }) => d.code);
      expect(codes).toEqual(['200', '503', '500', '200']);
    });
  });

  it('does not retry a 4xx other than 429', async () => {
    const r = await receiver();
    const nc = await createConfiguration(admin, ws, {
      name: 'gone',
      'destination-type': 'generic',
      enabled: true,
      url: r.url,
      triggers: ['run:created', 'run:planning'],
    });
    r.reply(410);
    const run = await createRun(admin, ws);
    // The planning notification comes after the created one was answered 410.
    await claimJob(ex);
    await r.waitFor(3);
    await eventually(async () => {
      const shown = await admin.api.get(`/api/v2/notification-configurations/${nc}`).expect(200);
      expect(shown.body.data.attributes['delivery-responses'][0]).toBeDefined();
    });
    const second = await createRun(admin, ws);
    await eventually(() => expect(about(r, second.id)).toHaveLength(1));
    const created = about(r, run.id).filter(
      (x) => (x.body.notifications as { trigger: string }[])[0].trigger === 'run:created',
    );
    expect(created).toHaveLength(1);
    const shown = await admin.api.get(`/api/v2/notification-configurations/${nc}`).expect(200);
    expect(shown.body.data.attributes['delivery-responses']).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: '410', successful: 'false', body: 'answer 410' }),
      ]),
    );
  });

  it('goes on with runs and answers while a receiver hangs', async () => {
    const r = await receiver();
    await createConfiguration(admin, ws, {
      name: 'hangs',
      'destination-type': 'generic',
      enabled: true,
      url: r.url,
      triggers: ALL_RUN_TRIGGERS,
    });
    r.reply('hang', 'hang', 'hang', 'hang', 'hang', 'hang', 'hang', 'hang');
    const run = await createRun(admin, ws);
    await r.waitFor(2);
    // The receiver holds the created notification unanswered, and the run moves on regardless.
    await ex.finish((await claimJob(ex)).id, PLANNED_WITH_CHANGES).expect(204);
    expect(await runStatus(admin, run.id)).toBe('planned');
    await admin.api.post(`/api/v2/runs/${run.id}/actions/discard`, {}).expect(202);
    expect(await runStatus(admin, run.id)).toBe('discarded');
    expect(r.received.length).toBeGreaterThanOrEqual(2);
  });

  it('refuses at delivery a host that now resolves to a private address, without connecting', async () => {
    const r = await receiver();
    const url = r.url.replace('127.0.0.1', 'receiver.example.test');
    const nc = await createConfiguration(admin, ws, {
      name: 'rebinding',
      'destination-type': 'generic',
      enabled: true,
      url,
      triggers: ['run:created'],
    });
    const saved = FAKE_HOSTS['receiver.example.test'];
    FAKE_HOSTS['receiver.example.test'] = [{ address: '10.0.0.7', family: 4 }];
    tripwire.armed = true;
    try {
      await createRun(admin, ws);
      await eventually(async () => {
        const shown = await admin.api.get(`/api/v2/notification-configurations/${nc}`).expect(200);
        expect(shown.body.data.attributes['delivery-responses'][0]).toEqual({
          url,
          body: 'The URL host receiver.example.test resolves to 10.0.0.7, which is a private address that notifications may not reach',
          code: '',
          headers: {},
          'sent-at': expect.stringMatching(ISO_MILLIS),
          successful: 'false',
        });
      });
      expect(r.received).toHaveLength(1);
    } finally {
      FAKE_HOSTS['receiver.example.test'] = saved;
      tripwire.armed = false;
    }
  });

  it('sends Slack and Microsoft Teams messages in their webhook formats', async () => {
    const slack = await receiver();
    const teams = await receiver();
    await createConfiguration(admin, ws, {
      name: 'chat',
      'destination-type': 'slack',
      enabled: true,
      url: slack.url,
      triggers: ['run:created'],
    });
    await createConfiguration(admin, ws, {
      name: 'teams',
      'destination-type': 'microsoft-teams',
      enabled: true,
      url: teams.url,
      triggers: ['run:created'],
    });
    expect(slack.received[0].body).toEqual({ text: 'Verification of chat' });
    expect(slack.received[0].headers['x-tfe-notification-signature']).toBeUndefined();
    const run = await createRun(admin, ws, { message: 'from chat' });
    await slack.waitFor(2);
    await teams.waitFor(2);
    expect(slack.received[1].body).toEqual({
      text: expect.stringMatching(
        new RegExp(
          `^Run Created: run ${run.id} in workspace ${org}/.+ \\(.+\\) <http://.+/api/v2/runs/${run.id}\\|View run>$`,
        ),
      ),
      attachments: [{ text: 'from chat' }],
    });
    expect(teams.received[1].body).toEqual({
      '@type': 'MessageCard',
      '@context': 'https://schema.org/extensions',
      summary: expect.stringContaining(`Run Created: run ${run.id}`),
      themeColor: '5C2D91',
      title: expect.stringContaining(`Run Created: run ${run.id}`),
      text: 'from chat',
      potentialAction: [
        {
          '@type': 'OpenUri',
          name: 'View run',
          targets: [{ os: 'default', uri: expect.stringMatching(new RegExp(`/api/v2/runs/${run.id}$`)) }],
        },
      ],
    });
  });
});

/** Retries an assertion until it holds (the worker sends after the answer), failing with its last error. */
async function eventually(check: () => unknown, tries = 200): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      await check();
      return;
    } catch (err) {
      if (i >= tries) throw err;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

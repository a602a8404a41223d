import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createProject,
  createTeam,
  createWorkspace,
} from '../helpers/fixtures';
import { errorsOf } from '../helpers/shapes';
import { TestApp } from '../helpers/test-app';
import { ncBody, startNotificationApp, Tripwire } from './notification-fixtures';

/** The workspace triggers of the real service (its notification docs, workspace page). */
const REAL_SERVICE_WORKSPACE_TRIGGERS = [
  'run:created',
  'run:planning',
  'run:needs_attention',
  'run:applying',
  'run:completed',
  'run:errored',
  'assessment:drifted',
  'assessment:check_failure',
  'assessment:failed',
  'workspace:auto_destroy_reminder',
  'workspace:auto_destroy_run_results',
  'workspace:deleted',
];

/** Disabled configurations: nothing is sent, the URL (loopback, allowed in these tests) is never reached. */
describe('notification configuration triggers', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;
  let ws: string;

  beforeAll(async () => {
    t = await startNotificationApp(new Tripwire());
    admin = await bootstrapAdmin(t);
    org = await createOrganization(admin);
    ws = await createWorkspace(admin, org);
  });
  afterAll(() => t.close());

  it('accepts every workspace trigger the real service accepts, and keeps them as sent', async () => {
    const res = await admin.api
      .post(
        `/api/v2/workspaces/${ws}/notification-configurations`,
        ncBody({
          name: 'everything',
          'destination-type': 'generic',
          url: 'http://127.0.0.1:9/hook',
          triggers: REAL_SERVICE_WORKSPACE_TRIGGERS,
        }),
      )
      .expect(201);
    expect(res.body.data.attributes.triggers).toEqual(REAL_SERVICE_WORKSPACE_TRIGGERS);
    const shown = await admin.api.get(`/api/v2/notification-configurations/${res.body.data.id}`).expect(200);
    expect(shown.body.data.attributes.triggers).toEqual(REAL_SERVICE_WORKSPACE_TRIGGERS);
  });

  it.each(['run:pending_apply_approval', 'change_request:created', 'team:change_request', 'Run:Created'])(
    'refuses %s, which is no workspace trigger, with a 422',
    async (trigger) => {
      const res = await admin.api
        .post(
          `/api/v2/workspaces/${ws}/notification-configurations`,
          ncBody({
            name: 'odd',
            'destination-type': 'generic',
            url: 'http://127.0.0.1:9/hook',
            triggers: ['run:created', trigger],
          }),
        )
        .expect(422);
      expect(res.body).toEqual(
        errorsOf(422, {
          detail: `Triggers has an unknown trigger: ${trigger}`,
          pointer: '/data/attributes/triggers',
        }),
      );
    },
  );

  it('offers no team or project configurations: their routes are not found', async () => {
    const body = ncBody({ name: 'team', 'destination-type': 'email', triggers: ['change_request:created'] });
    for (const base of [
      `/api/v2/teams/${await createTeam(admin, org)}`,
      `/api/v2/projects/${await createProject(admin, org)}`,
    ]) {
      await admin.api.get(`${base}/notification-configurations`).expect(404);
      await admin.api.post(`${base}/notification-configurations`, body).expect(404);
    }
  });
});

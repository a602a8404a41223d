import { DataSource } from 'typeorm';
import { AuditRecorder } from '../../src/audit/audit.recorder';
import { LOG_DESTINATION } from '../../src/observability/http-logging';
import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  expectPagination,
  idOf,
  memberWith,
} from '../helpers/fixtures';
import { LogCapture } from '../helpers/log-capture';
import { errorsOf } from '../helpers/shapes';
import { startApp, TestApp } from '../helpers/test-app';
import { policyWithCode, setOf } from '../policy-checks/check-fixtures';
import { protocolHelpers } from '../policy-checks/protocol-helpers';
import { SeenBodies } from '../variables/helpers';
import { createPolicySet } from './policy-fixtures';

const SECRET = 'policy-param-secret-never-shown-3e8d';

const body = (attributes: Record<string, unknown>) => ({ data: { type: 'vars', attributes } });

/** A parameter as the real service answers it. */
const shape = (setId: string, id: string, attributes: Record<string, unknown>) => ({
  id,
  type: 'vars',
  attributes: { key: expect.any(String), value: '', category: 'policy-set', sensitive: false, ...attributes },
  relationships: {
    configurable: {
      data: { id: setId, type: 'policy-sets' },
      links: { related: `/api/v2/policy-sets/${setId}` },
    },
  },
  links: { self: `/api/v2/policy-sets/${setId}/parameters/${id}` },
});

describe('policy set parameters (/policy-sets/:id/parameters)', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;
  let setId: string;
  const seen = new SeenBodies();
  const logs = new LogCapture();

  beforeAll(async () => {
    t = await startApp({ LOG_LEVEL: 'trace' }, [{ provide: LOG_DESTINATION, useValue: logs }]);
    admin = seen.watch(await bootstrapAdmin(t));
    org = await createOrganization(admin);
    setId = (await createPolicySet(admin, org, { kind: 'framework_a' })).id;
  });
  afterAll(() => t.close());

  const base = () => `/api/v2/policy-sets/${setId}/parameters`;

  it('creates, lists, shows, updates and deletes them in the real service’s shape', async () => {
    const res = await admin.api
      .post(base(), body({ key: 'max_size', value: '3', category: 'policy-set' }))
      .expect(201);
    const id = res.body.data.id as string;
    expect(id).toMatch(idOf('var'));
    expect(res.body.data).toEqual(shape(setId, id, { key: 'max_size', value: '3' }));
    expect(res.headers.location).toBe(res.body.data.links.self);

    const blank = await admin.api.post(base(), body({ key: 'empty', category: 'policy-set' })).expect(201);
    expect(blank.body.data).toEqual(shape(setId, blank.body.data.id, { key: 'empty', value: '' }));

    const list = await admin.api.get(`${base()}?page[size]=1`).expect(200);
    expect(list.body.data).toEqual([shape(setId, id, { key: 'max_size', value: '3' })]);
    expectPagination(list.body, { current: 1, size: 1, prev: null, next: 2, pages: 2, count: 2 });
    const byKey = await admin.api.get(`${base()}?sort=-key`).expect(200);
    expect(byKey.body.data.map((d: { attributes: { key: string } }) => d.attributes.key)).toEqual([
      'max_size',
      'empty',
    ]);

    expect((await admin.api.get(`${base()}/${id}`).expect(200)).body.data).toEqual(
      shape(setId, id, { key: 'max_size', value: '3' }),
    );
    const patched = await admin.api.patch(`${base()}/${id}`, body({ value: '5' })).expect(200);
    expect(patched.body.data).toEqual(shape(setId, id, { key: 'max_size', value: '5' }));
    const renamed = await admin.api.patch(`${base()}/${id}`, body({ key: 'max_count' })).expect(200);
    expect(renamed.body.data).toEqual(shape(setId, id, { key: 'max_count', value: '5' }));

    await admin.api.delete(`${base()}/${id}`).expect(204);
    await admin.api.get(`${base()}/${id}`).expect(404);
    await admin.api.delete(`${base()}/${blank.body.data.id as string}`).expect(204);
  });

  it('refuses a broken parameter, one error per rule, and a key twice in a set', async () => {
    const res = await admin.api
      .post(base(), body({ key: '', value: 'x'.repeat(256 * 1024 + 1) }))
      .expect(422);
    expect(res.body).toEqual(
      errorsOf(
        422,
        { detail: "Key can't be blank", pointer: '/data/attributes/key' },
        { detail: "Category can't be blank", pointer: '/data/attributes/category' },
        { detail: 'Value is too long (maximum is 262144 bytes)', pointer: '/data/attributes/value' },
      ),
    );
    const env = await admin.api.post(base(), body({ key: 'a', category: 'env' })).expect(422);
    expect(env.body).toEqual(
      errorsOf(422, { detail: 'Category must be policy-set', pointer: '/data/attributes/category' }),
    );
    const typed = await admin.api.post(base(), body({ key: 'a', category: 'policy-set', sensitive: 'yes' }));
    expect(typed.status).toBe(422);
    await admin.api.post(base(), body({ key: 'once', category: 'policy-set' })).expect(201);
    const twice = await admin.api.post(base(), body({ key: 'once', category: 'policy-set' })).expect(422);
    expect(twice.body).toEqual(
      errorsOf(422, {
        detail: 'Key has already been taken',
        code: 'KEY_TAKEN',
        pointer: '/data/attributes/key',
      }),
    );
    // Keys are case-sensitive on both databases.
    await admin.api.post(base(), body({ key: 'ONCE', category: 'policy-set' })).expect(201);
  });

  it('keeps a sensitive value write-only and sealed, and sensitive for good', async () => {
    const res = await admin.api
      .post(base(), body({ key: 'api_token', value: SECRET, category: 'policy-set', sensitive: true }))
      .expect(201);
    const id = res.body.data.id as string;
    expect(res.body.data).toEqual(shape(setId, id, { key: 'api_token', value: null, sensitive: true }));
    expect((await admin.api.get(`${base()}/${id}`).expect(200)).body.data.attributes.value).toBeNull();
    const listed = await admin.api.get(base()).expect(200);
    expect(listed.body.data.find((d: { id: string }) => d.id === id).attributes.value).toBeNull();
    const back = await admin.api
      .patch(`${base()}/${id}`, body({ sensitive: false, key: 'other' }))
      .expect(422);
    expect(back.body).toEqual(
      errorsOf(
        422,
        {
          detail:
            "Sensitive can't be changed from true to false on saved records. Delete the parameter and create a new one instead",
          pointer: '/data/attributes/sensitive',
        },
        {
          detail: 'Key of a sensitive parameter cannot be changed: delete the parameter and create a new one',
          pointer: '/data/attributes/key',
        },
      ),
    );
    await admin.api.patch(`${base()}/${id}`, body({ value: `${SECRET}-2` })).expect(200);
    const rows: Record<string, unknown>[] = await t.app
      .get(DataSource)
      .query('SELECT * FROM policy_set_parameters WHERE id = ?', [id]);
    expect(rows).toHaveLength(1);
    expect(rows[0].value).toBeNull();
    expect(JSON.stringify(rows)).not.toContain(SECRET);
    // A plain parameter made sensitive has its stored value sealed.
    const plain = await admin.api
      .post(base(), body({ key: 'later', value: 'was-plain', category: 'policy-set' }))
      .expect(201);
    const made = await admin.api
      .patch(`${base()}/${plain.body.data.id as string}`, body({ sensitive: true }))
      .expect(200);
    expect(made.body.data.attributes).toEqual({
      key: 'later',
      value: null,
      category: 'policy-set',
      sensitive: true,
    });
  });

  it('needs the right to manage policies, and is a 404 from another organization', async () => {
    const reader = await memberWith(t, admin, admin, org, ['read-workspaces']);
    const manager = await memberWith(t, admin, admin, org, ['manage-policies']);
    await reader.api.get(base()).expect(404);
    await reader.api.post(base(), body({ key: 'no', category: 'policy-set' })).expect(404);
    await manager.api.get(base()).expect(200);
    const made = await manager.api
      .post(base(), body({ key: 'by_manager', category: 'policy-set' }))
      .expect(201);
    await reader.api.delete(`${base()}/${made.body.data.id as string}`).expect(404);

    const otherOrg = await createOrganization(admin);
    const outsider = await memberWith(t, admin, admin, otherOrg, ['manage-policies']);
    await outsider.api.get(base()).expect(404);
    await outsider.api.get(`${base()}/${made.body.data.id as string}`).expect(404);
    const otherSet = (await createPolicySet(admin, otherOrg)).id;
    await admin.api
      .get(`/api/v2/policy-sets/${otherSet}/parameters/${made.body.data.id as string}`)
      .expect(404);
    await admin.api.get('/api/v2/policy-sets/polset-doesnotexist12345/parameters').expect(404);
  });

  it('reach each evaluation of the set in its claim, values in clear, and go with the set', async () => {
    const { setting, planned, claimEvaluation } = protocolHelpers(() => ({ t, admin }));
    const { org: evalOrg, ws, ex } = await setting();
    const policy = await policyWithCode(admin, evalOrg, {
      name: 'limits',
      level: 'advisory',
      code: 'main = true',
    });
    const set = await setOf(admin, evalOrg, 'with-params', [policy], { workspaces: [ws] });
    const params = `/api/v2/policy-sets/${set}/parameters`;
    await admin.api.post(params, body({ key: 'max_size', value: '3', category: 'policy-set' })).expect(201);
    await admin.api
      .post(params, body({ key: 'api_token', value: SECRET, category: 'policy-set', sensitive: true }))
      .expect(201);
    await planned(ex, ws);
    const job = await claimEvaluation(ex);
    expect((job['policy-evaluation'] as unknown as { parameters: unknown }).parameters).toEqual([
      { key: 'max_size', value: '3', sensitive: false },
      { key: 'api_token', value: SECRET, sensitive: true },
    ]);

    const count = async () =>
      Number(
        (
          await t.app
            .get(DataSource)
            .query('SELECT COUNT(*) AS n FROM policy_set_parameters WHERE policy_set_id = ?', [set])
        )[0].n,
      );
    expect(await count()).toBe(2);
    await admin.api.delete(`/api/v2/policy-sets/${set}`).expect(204);
    expect(await count()).toBe(0);
  });

  it('never shows a sensitive value: in no response, log line or audit event', async () => {
    await t.app.get(AuditRecorder).flush();
    const trail = await admin.api.get('/api/v2/admin/audit-trail?page[size]=100').expect(200);
    expect(trail.text).not.toContain(SECRET);
    expect(logs.lines.length).toBeGreaterThan(0);
    expect(logs.text).not.toContain(SECRET);
    expect(seen.bodies.length).toBeGreaterThan(10);
    expect(seen.containing(SECRET)).toEqual([]);
  });
});

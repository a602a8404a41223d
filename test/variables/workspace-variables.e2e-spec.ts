import { DataSource } from 'typeorm';
import { AuditRecorder } from '../../src/audit/audit.recorder';
import { LOG_DESTINATION } from '../../src/observability/http-logging';
import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createUser,
  createWorkspace,
  expectPagination,
  grantWorkspace,
  idOf,
  memberWith,
  unique,
} from '../helpers/fixtures';
import { LogCapture } from '../helpers/log-capture';
import { errorsOf } from '../helpers/shapes';
import { startApp, TestApp } from '../helpers/test-app';
import { createVar, SeenBodies, varBody } from './helpers';

const SECRET = 'hunter2-never-shown-4d1c9e';

describe('workspace variables', () => {
  let t: TestApp;
  let admin: Actor;
  let owner: Actor;
  let org: string;
  let wsName: string;
  let ws: string;
  const seen = new SeenBodies();
  const logs = new LogCapture();

  beforeAll(async () => {
    t = await startApp({ LOG_LEVEL: 'trace' }, [{ provide: LOG_DESTINATION, useValue: logs }]);
    admin = await bootstrapAdmin(t);
    owner = seen.watch(await createUser(t, admin));
    org = await createOrganization(owner);
    wsName = unique('ws');
    ws = await createWorkspace(owner, org, wsName);
  });
  afterAll(() => t.close());

  const shape = (id: string, attributes: Record<string, unknown>) => ({
    id,
    type: 'vars',
    attributes: {
      key: expect.any(String),
      value: '',
      description: '',
      category: 'terraform',
      hcl: false,
      sensitive: false,
      'version-id': expect.stringMatching(/^[0-9a-f]{64}$/),
      ...attributes,
    },
    relationships: {
      configurable: {
        data: { id: ws, type: 'workspaces' },
        links: { related: `/api/v2/organizations/${org}/workspaces/${wsName}` },
      },
    },
    links: { self: `/api/v2/workspaces/${ws}/vars/${id}` },
  });

  describe('create, show, list, update, delete', () => {
    it('creates with the defaults of the reference and answers the whole resource', async () => {
      const res = await owner.api
        .post(`/api/v2/workspaces/${ws}/vars`, varBody({ key: 'region', category: 'terraform' }))
        .expect(201);
      expect(res.body.data).toEqual(shape(res.body.data.id, { key: 'region' }));
      expect(res.body.data.id).toMatch(idOf('var'));
      expect(res.headers.location).toBe(res.body.data.links.self);
      const shown = await owner.api.get(res.body.data.links.self).expect(200);
      expect(shown.body.data).toEqual(res.body.data);
    });

    it('keeps values that read as JSON as the strings they are', async () => {
      for (const value of ['2', 'null', 'true', '[1,2]', '"quoted"', '{"v":1}']) {
        const { id } = await createVar(owner, ws, {
          key: unique('json').replace(/-/g, '_'),
          value,
          category: 'terraform',
        });
        const shown = await owner.api.get(`/api/v2/workspaces/${ws}/vars/${id}`).expect(200);
        expect(shown.body.data.attributes.value).toBe(value);
      }
    });

    it('keeps every attribute sent', async () => {
      const { id, body } = await createVar(owner, ws, {
        key: 'tags',
        value: '{ env = "prod" }',
        description: 'common tags',
        category: 'terraform',
        hcl: true,
      });
      expect(body).toEqual(
        shape(id, { key: 'tags', value: '{ env = "prod" }', description: 'common tags', hcl: true }),
      );
    });

    it('updates only what is sent, with a new version-id every time, even for no change', async () => {
      const { id, body } = await createVar(owner, ws, {
        key: 'image',
        value: 'ami-1',
        category: 'terraform',
      });
      const first = body.attributes as Record<string, unknown>;
      const patched = await owner.api
        .patch(`/api/v2/workspaces/${ws}/vars/${id}`, varBody({ value: 'ami-2' }, id))
        .expect(200);
      expect(patched.body.data).toEqual(shape(id, { key: 'image', value: 'ami-2' }));
      expect(patched.body.data.attributes['version-id']).not.toBe(first['version-id']);
      const same = await owner.api.patch(`/api/v2/workspaces/${ws}/vars/${id}`, varBody({}, id)).expect(200);
      expect(same.body.data.attributes).toEqual({
        ...patched.body.data.attributes,
        'version-id': expect.any(String),
      });
      expect(same.body.data.attributes['version-id']).not.toBe(patched.body.data.attributes['version-id']);
    });

    it('deletes with 204 and no body; the variable is gone', async () => {
      const { id } = await createVar(owner, ws, { key: 'gone', category: 'env' });
      const res = await owner.api.delete(`/api/v2/workspaces/${ws}/vars/${id}`).expect(204);
      expect(res.text).toBe('');
      await owner.api.get(`/api/v2/workspaces/${ws}/vars/${id}`).expect(404);
    });

    it('lists a page of the workspace’s own variables, oldest first', async () => {
      const other = await createWorkspace(owner, org);
      const keys = ['a', 'b', 'c'];
      for (const key of keys) await createVar(owner, other, { key, category: 'env' });
      const res = await owner.api.get(`/api/v2/workspaces/${other}/vars?page[size]=2`).expect(200);
      expect(res.body.data.map((d: { attributes: { key: string } }) => d.attributes.key)).toEqual(['a', 'b']);
      expectPagination(res.body, { current: 1, size: 2, prev: null, next: 2, pages: 2, count: 3 });
      const sorted = await owner.api.get(`/api/v2/workspaces/${other}/vars?sort=-key`).expect(200);
      expect(sorted.body.data.map((d: { attributes: { key: string } }) => d.attributes.key)).toEqual([
        'c',
        'b',
        'a',
      ]);
    });
  });

  describe('rules', () => {
    const post = (attributes: Record<string, unknown>) =>
      owner.api.post(`/api/v2/workspaces/${ws}/vars`, varBody(attributes));

    it('requires key and category', async () => {
      const res = await post({ value: 'x' }).expect(422);
      expect(res.body).toEqual(
        errorsOf(
          422,
          { detail: "Key can't be blank", pointer: '/data/attributes/key' },
          { detail: "Category can't be blank", pointer: '/data/attributes/category' },
        ),
      );
    });

    it('knows only the terraform and env categories', async () => {
      const res = await post({ key: 'k', category: 'policy-set' }).expect(422);
      expect(res.body).toEqual(
        errorsOf(422, {
          detail: 'Category is not included in the list',
          pointer: '/data/attributes/category',
        }),
      );
    });

    it('limits key to 128 characters, value to 256 KB and description to 512 characters', async () => {
      await post({
        key: 'k'.repeat(128),
        value: 'v'.repeat(256 * 1024),
        description: 'd'.repeat(512),
        category: 'terraform',
      }).expect(201);
      const res = await post({
        key: 'k'.repeat(129),
        value: 'v'.repeat(256 * 1024 + 1),
        description: 'd'.repeat(513),
        category: 'terraform',
      }).expect(422);
      expect(res.body).toEqual(
        errorsOf(
          422,
          { detail: 'Key is too long (maximum is 128 characters)', pointer: '/data/attributes/key' },
          { detail: 'Value is too long (maximum is 262144 bytes)', pointer: '/data/attributes/value' },
          {
            detail: 'Description is too long (maximum is 512 characters)',
            pointer: '/data/attributes/description',
          },
        ),
      );
    });

    it('refuses attributes of the wrong JSON type', async () => {
      const res = await post({ key: 'k', category: 'env', sensitive: 'true', hcl: 1 }).expect(422);
      expect(res.body.errors.map((e: { detail: string }) => e.detail).sort()).toEqual([
        'Hcl must be a boolean',
        'Sensitive must be a boolean',
      ]);
    });

    it('takes a key once per category, and the same key in the other category', async () => {
      await post({ key: 'dup', category: 'terraform' }).expect(201);
      const res = await post({ key: 'dup', category: 'terraform' }).expect(422);
      expect(res.body).toEqual(
        errorsOf(422, {
          detail: 'Key has already been taken',
          code: 'KEY_TAKEN',
          pointer: '/data/attributes/key',
        }),
      );
      await post({ key: 'dup', category: 'env' }).expect(201);
      // Keys are case-sensitive on every database.
      await post({ key: 'DUP', category: 'terraform' }).expect(201);
    });

    it('refuses an update onto a key the category already has', async () => {
      await post({ key: 'taken_one', category: 'env' }).expect(201);
      const { id } = await createVar(owner, ws, { key: 'taken_two', category: 'env' });
      await owner.api
        .patch(`/api/v2/workspaces/${ws}/vars/${id}`, varBody({ key: 'taken_one' }, id))
        .expect(422);
    });

    it('takes only shell names as env keys', async () => {
      for (const key of ['AWS_REGION', '_x', 'a1']) await post({ key, category: 'env' }).expect(201);
      for (const key of ['1ABC', 'A-B', 'A B', 'a.b', 'é']) {
        const res = await post({ key, category: 'env' }).expect(422);
        expect(res.body.errors[0].source).toEqual({ pointer: '/data/attributes/key' });
      }
      await post({ key: 'module.x-y', category: 'terraform' }).expect(201);
    });
  });

  describe('sensitive values', () => {
    let id: string;

    beforeAll(async () => {
      ({ id } = await createVar(owner, ws, {
        key: 'db_password',
        value: SECRET,
        category: 'terraform',
        sensitive: true,
      }));
    });

    it('are never answered: create, show, list, update and the legacy list show null', async () => {
      const shown = await owner.api.get(`/api/v2/workspaces/${ws}/vars/${id}`).expect(200);
      expect(shown.body.data.attributes).toMatchObject({ key: 'db_password', value: null, sensitive: true });
      const list = await owner.api.get(`/api/v2/workspaces/${ws}/vars?page[size]=100`).expect(200);
      const listed = list.body.data.find((d: { id: string }) => d.id === id);
      expect(listed.attributes.value).toBeNull();
      const patched = await owner.api
        .patch(`/api/v2/workspaces/${ws}/vars/${id}`, varBody({ description: 'rotated' }, id))
        .expect(200);
      expect(patched.body.data.attributes).toMatchObject({
        value: null,
        description: 'rotated',
        sensitive: true,
      });
      await owner.api
        .get(`/api/v2/vars?filter[organization][name]=${org}&filter[workspace][name]=${wsName}`)
        .expect(200);
    });

    it('may take a new value, but not go back to non-sensitive', async () => {
      const next = `${SECRET}-2`;
      await owner.api.patch(`/api/v2/workspaces/${ws}/vars/${id}`, varBody({ value: next }, id)).expect(200);
      const res = await owner.api
        .patch(`/api/v2/workspaces/${ws}/vars/${id}`, varBody({ sensitive: false }, id))
        .expect(422);
      expect(res.body).toEqual(
        errorsOf(422, {
          detail:
            "Sensitive can't be changed from true to false on saved records. Delete the variable and create a new one instead",
          pointer: '/data/attributes/sensitive',
        }),
      );
      const renamed = await owner.api
        .patch(`/api/v2/workspaces/${ws}/vars/${id}`, varBody({ key: 'other', hcl: true }, id))
        .expect(422);
      expect(renamed.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toEqual([
        '/data/attributes/key',
        '/data/attributes/hcl',
      ]);
    });

    it('turn a plain variable sensitive (one way), sealing the value it had', async () => {
      // Shown while it was not sensitive: not the secret the last test looks for.
      const plain = 'plain-then-sealed-77';
      const { id: v } = await createVar(owner, ws, { key: 'token', value: plain, category: 'env' });
      const res = await owner.api
        .patch(`/api/v2/workspaces/${ws}/vars/${v}`, varBody({ sensitive: true }, v))
        .expect(200);
      expect(res.body.data.attributes).toMatchObject({ value: null, sensitive: true });
      const rows: { value: unknown; sealed_value: string }[] = await t.app
        .get(DataSource)
        .query('SELECT value, sealed_value FROM variables WHERE id = ?', [v]);
      expect(rows[0].value).toBeNull();
      expect(String(rows[0].sealed_value)).not.toContain(plain);
    });

    it('are stored only sealed: no row of the table holds one in clear', async () => {
      const rows: Record<string, unknown>[] = await t.app.get(DataSource).query('SELECT * FROM variables');
      expect(rows.length).toBeGreaterThan(0);
      expect(JSON.stringify(rows)).not.toContain(SECRET);
      const row = rows.find((r) => r.id === id)!;
      expect(row.value).toBeNull();
      expect(String(row.sealed_value)).toMatch(/^"?[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+"?$/);
    });

    it('show in no response, log line or audit event', async () => {
      await t.app.get(AuditRecorder).flush();
      const trail = await admin.api.get('/api/v2/admin/audit-trail?page[size]=100').expect(200);
      expect(trail.text).not.toContain(SECRET);
      expect(logs.text).not.toContain(SECRET);
      expect(logs.lines.length).toBeGreaterThan(0);
      expect(seen.bodies.length).toBeGreaterThan(5);
      expect(seen.containing(SECRET)).toEqual([]);
    });
  });

  describe('legacy /vars routes', () => {
    it('create with relationships.workspace, list by names, update and delete by id', async () => {
      const res = await owner.api
        .post('/api/v2/vars', {
          data: {
            type: 'vars',
            attributes: { key: 'legacy', value: 'v1', category: 'terraform' },
            relationships: { workspace: { data: { type: 'workspaces', id: ws } } },
          },
        })
        .expect(201);
      const id = res.body.data.id as string;
      expect(res.body.data).toEqual(shape(id, { key: 'legacy', value: 'v1' }));
      const list = await owner.api
        .get(
          `/api/v2/vars?filter[organization][name]=${org}&filter[workspace][name]=${wsName}&page[size]=100`,
        )
        .expect(200);
      expect(list.body.data.map((d: { id: string }) => d.id)).toContain(id);
      const patched = await owner.api.patch(`/api/v2/vars/${id}`, varBody({ value: 'v2' }, id)).expect(200);
      expect(patched.body.data.attributes.value).toBe('v2');
      await owner.api.delete(`/api/v2/vars/${id}`).expect(204);
      await owner.api.get(`/api/v2/workspaces/${ws}/vars/${id}`).expect(404);
    });

    it('needs both filters (400) and a workspace relationship (422)', async () => {
      const res = await owner.api.get(`/api/v2/vars?filter[organization][name]=${org}`).expect(400);
      expect(res.body).toEqual(
        errorsOf(400, {
          detail: 'filter[organization][name] and filter[workspace][name] are required',
          parameter: 'filter[workspace][name]',
        }),
      );
      await owner.api.post('/api/v2/vars', varBody({ key: 'k', category: 'env' })).expect(422);
      await owner.api
        .get(`/api/v2/vars?filter[organization][name]=${org}&filter[workspace][name]=nope`)
        .expect(404);
    });
  });

  describe('permissions', () => {
    let varId: string;
    let target: string;

    beforeAll(async () => {
      target = await createWorkspace(owner, org);
      ({ id: varId } = await createVar(owner, target, { key: 'perm', value: 'v', category: 'terraform' }));
    });

    const asLevel = async (level?: 'read' | 'plan' | 'write' | 'admin') => {
      const member = await memberWith(t, admin, owner, org);
      if (level) await grantWorkspace(owner, member.teamId, target, level);
      return member;
    };

    it.each([
      ['read', 200, 404],
      ['plan', 200, 404],
      ['write', 200, 201],
      ['admin', 200, 201],
      [undefined, 404, 404],
    ] as const)('a team with %s access reads with %i and writes with %i', async (level, read, write) => {
      const caller = await asLevel(level);
      await caller.api.get(`/api/v2/workspaces/${target}/vars`).expect(read);
      await caller.api.get(`/api/v2/workspaces/${target}/vars/${varId}`).expect(read);
      await caller.api
        .post(
          `/api/v2/workspaces/${target}/vars`,
          varBody({ key: unique('k').replace(/-/g, '_'), category: 'env' }),
        )
        .expect(write);
      const update = write === 201 ? 200 : 404;
      await caller.api
        .patch(`/api/v2/workspaces/${target}/vars/${varId}`, varBody({ description: 'x' }, varId))
        .expect(update);
      const ws = await caller.api.get(`/api/v2/workspaces/${target}`);
      if (read === 200) {
        expect(ws.body.data.attributes.permissions).toMatchObject({
          'can-read-variable': true,
          'can-update-variable': write === 201,
        });
      }
    });

    it('hides everything from another organization (404, bare)', async () => {
      const outsider = await createUser(t, admin);
      await createOrganization(outsider);
      for (const res of [
        await outsider.api.get(`/api/v2/workspaces/${target}/vars`),
        await outsider.api.get(`/api/v2/workspaces/${target}/vars/${varId}`),
        await outsider.api.post(`/api/v2/workspaces/${target}/vars`, varBody({ key: 'k', category: 'env' })),
        await outsider.api.patch(`/api/v2/vars/${varId}`, varBody({ value: 'x' }, varId)),
        await outsider.api.delete(`/api/v2/workspaces/${target}/vars/${varId}`),
        await outsider.api.get(
          `/api/v2/vars?filter[organization][name]=${org}&filter[workspace][name]=${wsName}`,
        ),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ errors: [{ status: '404', title: 'not found' }] });
      }
    });

    it('answers 404 for a variable through another workspace’s path', async () => {
      await owner.api.get(`/api/v2/workspaces/${ws}/vars/${varId}`).expect(404);
      await owner.api.delete(`/api/v2/workspaces/${ws}/vars/${varId}`).expect(404);
      await owner.api.get(`/api/v2/workspaces/${target}/vars/${varId}`).expect(200);
    });
  });
});

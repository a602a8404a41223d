import {
  Actor,
  createOrganization,
  createWorkspace,
  expectPagination,
  idOf,
  ISO_MILLIS,
  unique,
  startWithOwnedOrganization,
} from '../helpers/fixtures';
import { JSONAPI, TestApp } from '../helpers/test-app';
import { createTrigger, listTriggers, postTrigger, sourceableError, triggerBody } from './helpers';

describe('run triggers', () => {
  let t: TestApp;
  let owner: Actor;
  let org: string;

  beforeAll(async () => {
    ({ t, owner, org } = await startWithOwnedOrganization());
  });
  afterAll(() => t.close());

  /** A fresh workspace in the test organization, with its name. */
  async function workspace(name = unique('ws')): Promise<{ id: string; name: string }> {
    return { id: await createWorkspace(owner, org, name), name };
  }

  describe('create', () => {
    it('answers 201 with the whole run-triggers resource', async () => {
      const dest = await workspace();
      const source = await workspace();
      const res = await postTrigger(owner, dest.id, source.id).expect(201);
      expect(res.headers['content-type']).toContain(JSONAPI);
      const id = res.body.data.id;
      expect(id).toMatch(idOf('rt'));
      expect(res.body).toEqual({
        data: {
          id,
          type: 'run-triggers',
          attributes: {
            'workspace-name': dest.name,
            'sourceable-name': source.name,
            'created-at': expect.stringMatching(ISO_MILLIS),
          },
          relationships: {
            workspace: { data: { id: dest.id, type: 'workspaces' } },
            sourceable: { data: { id: source.id, type: 'workspaces' } },
          },
          links: { self: `/api/v2/run-triggers/${id}` },
        },
      });
    });

    it('accepts a body without data.type, as the documented sample sends it', async () => {
      const dest = await workspace();
      const source = await workspace();
      const res = await owner.api
        .post(`/api/v2/workspaces/${dest.id}/run-triggers`, triggerBody(source.id, null))
        .expect(201);
      expect(res.body.data.type).toBe('run-triggers');
    });

    it('refuses any other data.type with a 409 pointing at it', async () => {
      const dest = await workspace();
      const source = await workspace();
      const res = await owner.api
        .post(`/api/v2/workspaces/${dest.id}/run-triggers`, triggerBody(source.id, 'workspaces'))
        .expect(409);
      expect(res.body.errors).toEqual([
        expect.objectContaining({ status: '409', source: { pointer: '/data/type' } }),
      ]);
    });

    it('requires the sourceable relationship', async () => {
      const dest = await workspace();
      const url = `/api/v2/workspaces/${dest.id}/run-triggers`;
      const missing = await owner.api.post(url, { data: { type: 'run-triggers' } }).expect(422);
      expect(missing.body).toEqual(sourceableError('Sourceable relationship is required'));
      const nulled = await owner.api
        .post(url, { data: { type: 'run-triggers', relationships: { sourceable: { data: null } } } })
        .expect(422);
      expect(nulled.body).toEqual(sourceableError('Sourceable relationship is required'));
    });

    it('refuses a sourceable identifier of another type', async () => {
      const dest = await workspace();
      const res = await owner.api
        .post(`/api/v2/workspaces/${dest.id}/run-triggers`, {
          data: { relationships: { sourceable: { data: { id: 'prj-x', type: 'projects' } } } },
        })
        .expect(422);
      expect(res.body.errors[0].source).toEqual({ pointer: '/data/relationships/sourceable/data/type' });
    });

    it('answers 404 when the workspace or the sourceable does not exist', async () => {
      const ws = await workspace();
      const unknown = 'ws-0000000000000000';
      const res = await postTrigger(owner, unknown, ws.id).expect(404);
      expect(res.body).toEqual({ errors: [{ status: '404', title: 'not found' }] });
      await postTrigger(owner, ws.id, unknown).expect(404);
    });

    it('refuses a workspace triggering itself', async () => {
      const ws = await workspace();
      const res = await postTrigger(owner, ws.id, ws.id).expect(422);
      expect(res.body).toEqual(sourceableError('A workspace cannot trigger runs in itself'));
    });

    it('refuses a sourceable from another organization, even one the caller can read', async () => {
      const otherOrg = await createOrganization(owner);
      const foreign = await createWorkspace(owner, otherOrg);
      const ws = await workspace();
      const res = await postTrigger(owner, ws.id, foreign).expect(422);
      expect(res.body).toEqual(
        sourceableError('Sourceable workspace must belong to the same organization as the workspace'),
      );
    });

    it('refuses the same pair a second time', async () => {
      const dest = await workspace();
      const source = await workspace();
      await createTrigger(owner, dest.id, source.id);
      const res = await postTrigger(owner, dest.id, source.id).expect(422);
      expect(res.body).toEqual(
        sourceableError('Sourceable workspace already triggers runs in this workspace', 'RUN_TRIGGER_TAKEN'),
      );
      await postTrigger(owner, source.id, dest.id).expect(422);
    });

    it('refuses the trigger that would close a cycle of three workspaces, naming them in order', async () => {
      const a = await workspace();
      const b = await workspace();
      const c = await workspace();
      await createTrigger(owner, b.id, a.id);
      await createTrigger(owner, c.id, b.id);
      const res = await postTrigger(owner, a.id, c.id).expect(422);
      expect(res.body).toEqual(
        sourceableError(`Run trigger would create a cycle: ${c.name} → ${a.name} → ${b.name} → ${c.name}`),
      );
      const inbound = await listTriggers(owner, a.id, 'inbound').expect(200);
      expect(inbound.body.data).toEqual([]);
    });

    it('accepts 20 source workspaces and refuses the 21st', async () => {
      const dest = await workspace();
      for (let i = 0; i < 20; i++) await createTrigger(owner, dest.id, (await workspace()).id);
      const res = await postTrigger(owner, dest.id, (await workspace()).id).expect(422);
      expect(res.body).toEqual(sourceableError('A workspace can have at most 20 source workspaces'));
      const list = await listTriggers(owner, dest.id, 'inbound').expect(200);
      expect(list.body.meta.pagination['total-count']).toBe(20);
    });

    it('lets only 20 of 30 concurrent creates on one destination through, refusing the rest with 422', async () => {
      const dest = await workspace();
      const sources: string[] = [];
      for (let i = 0; i < 30; i++) sources.push((await workspace()).id);
      const results = await Promise.all(sources.map((s) => postTrigger(owner, dest.id, s)));
      const created = results.filter((r) => r.status === 201);
      const refused = results.filter((r) => r.status === 422);
      expect(created).toHaveLength(20);
      expect(refused).toHaveLength(10);
      for (const r of refused) {
        expect(r.body).toEqual(sourceableError('A workspace can have at most 20 source workspaces'));
      }
      const list = await listTriggers(owner, dest.id, 'inbound', '&page%5Bsize%5D=100').expect(200);
      expect(list.body.meta.pagination['total-count']).toBe(20);
      expect(list.body.data.map((d: { id: string }) => d.id).sort()).toEqual(
        created.map((r) => r.body.data.id as string).sort(),
      );
    });

    it('lets only one direction of each pair through when both are created at once', async () => {
      const pairs: [string, string][] = [];
      for (let i = 0; i < 5; i++) pairs.push([(await workspace()).id, (await workspace()).id]);
      const results = await Promise.all(
        pairs.flatMap(([x, y]) => [postTrigger(owner, x, y), postTrigger(owner, y, x)]),
      );
      for (let i = 0; i < pairs.length; i++) {
        const statuses = [results[2 * i].status, results[2 * i + 1].status].sort();
        expect(statuses).toEqual([201, 422]);
      }
    });
  });

  describe('list', () => {
    let dest: { id: string; name: string };
    let s1: { id: string; name: string };
    let other: { id: string; name: string };
    const created: { id: string; relationships: { sourceable: { data: { id: string } } } }[] = [];

    beforeAll(async () => {
      dest = await workspace();
      s1 = await workspace();
      other = await workspace();
      for (const source of [s1, await workspace(), await workspace()]) {
        const res = await postTrigger(owner, dest.id, source.id).expect(201);
        created.push(res.body.data);
      }
      await createTrigger(owner, other.id, s1.id);
    });

    it('pages the inbound triggers of a workspace in creation order', async () => {
      const first = await listTriggers(owner, dest.id, 'inbound', '&page%5Bsize%5D=2').expect(200);
      expect(first.body.data).toEqual(created.slice(0, 2));
      expectPagination(first.body, { current: 1, size: 2, prev: null, next: 2, pages: 2, count: 3 });
      expect(first.body.links.next).toContain('filter%5Brun-trigger%5D%5Btype%5D=inbound');
      const second = await listTriggers(owner, dest.id, 'inbound', '&page%5Bsize%5D=2&page%5Bnumber%5D=2');
      expect(second.body.data).toEqual(created.slice(2));
      expectPagination(second.body, { current: 2, size: 2, prev: 1, next: null, pages: 2, count: 3 });
    });

    it('lists the outbound triggers of a source workspace', async () => {
      const res = await listTriggers(owner, s1.id, 'outbound').expect(200);
      expect(
        res.body.data.map((d: { attributes: Record<string, string> }) => [
          d.attributes['sourceable-name'],
          d.attributes['workspace-name'],
        ]),
      ).toEqual([
        [s1.name, dest.name],
        [s1.name, other.name],
      ]);
      expectPagination(res.body, { current: 1, size: 20, prev: null, next: null, pages: 1, count: 2 });
      const none = await listTriggers(owner, dest.id, 'outbound').expect(200);
      expect(none.body.data).toEqual([]);
      expectPagination(none.body, { current: 1, size: 20, prev: null, next: null, pages: 0, count: 0 });
    });

    it('answers a page past the end with no items and the real total, and 404 for an unknown workspace', async () => {
      const past = await listTriggers(owner, dest.id, 'inbound', '&page%5Bsize%5D=2&page%5Bnumber%5D=5');
      expect(past.status).toBe(200);
      expect(past.body.data).toEqual([]);
      expectPagination(past.body, { current: 5, size: 2, prev: 2, next: null, pages: 2, count: 3 });
      const emptyPast = await listTriggers(owner, dest.id, 'outbound', '&page%5Bnumber%5D=3');
      expect(emptyPast.status).toBe(200);
      expectPagination(emptyPast.body, { current: 3, size: 20, prev: 1, next: null, pages: 0, count: 0 });
      const unknown = await listTriggers(owner, 'ws-AAAAAAAAAAAAAAAA', 'inbound');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ errors: [{ status: '404', title: 'not found' }] });
    });

    it('gives each item exactly the bytes of its create response', async () => {
      const res = await listTriggers(owner, dest.id, 'inbound').expect(200);
      const items = JSON.parse(res.text).data as unknown[];
      expect(items.map((i) => JSON.stringify(i))).toEqual(created.map((c) => JSON.stringify(c)));
    });

    it.each([
      ['missing', ''],
      ['empty', '?filter%5Brun-trigger%5D%5Btype%5D='],
      ['any other value', '?filter%5Brun-trigger%5D%5Btype%5D=sideways'],
    ])('answers 400 naming filter[run-trigger][type] when it is %s', async (_, query) => {
      const res = await owner.api.get(`/api/v2/workspaces/${dest.id}/run-triggers${query}`).expect(400);
      expect(res.body).toEqual({
        errors: [
          {
            status: '400',
            title: 'bad request',
            detail: 'filter[run-trigger][type] is required and must be inbound or outbound',
            source: { parameter: 'filter[run-trigger][type]' },
          },
        ],
      });
    });

    it('refuses an unknown include with 400 and a page size over 100 with 422', async () => {
      const bad = await listTriggers(owner, dest.id, 'inbound', '&include=organization').expect(400);
      expect(bad.body.errors[0].source).toEqual({ parameter: 'include' });
      const big = await listTriggers(owner, dest.id, 'inbound', '&page%5Bsize%5D=101').expect(422);
      expect(big.body.errors[0].detail).toBe('page[size] must be between 1 and 100');
    });

    it('answers 404 for an unknown workspace', async () => {
      await listTriggers(owner, 'ws-0000000000000000', 'inbound').expect(404);
    });

    it('includes each related workspace once, as the workspace endpoint shows it', async () => {
      const res = await listTriggers(owner, dest.id, 'inbound', '&include=workspace,sourceable').expect(200);
      const ids = [dest.id, ...created.map((c) => c.relationships.sourceable.data.id)];
      expect(res.body.included.map((w: { id: string }) => w.id).sort()).toEqual([...ids].sort());
      const shown = await owner.api.get(`/api/v2/workspaces/${dest.id}`).expect(200);
      expect(res.body.included.find((w: { id: string }) => w.id === dest.id)).toEqual(shown.body.data);
      const onlyDest = await listTriggers(owner, dest.id, 'inbound', '&include=workspace').expect(200);
      expect(onlyDest.body.included).toEqual([shown.body.data]);
    });
  });

  describe('show and delete', () => {
    it('shows a trigger, with the included workspaces on request', async () => {
      const dest = await workspace();
      const source = await workspace();
      const created = await postTrigger(owner, dest.id, source.id).expect(201);
      const id = created.body.data.id;
      const res = await owner.api.get(`/api/v2/run-triggers/${id}`).expect(200);
      expect(res.body).toEqual({ data: created.body.data });
      const withBoth = await owner.api
        .get(`/api/v2/run-triggers/${id}?include=sourceable,workspace`)
        .expect(200);
      expect(withBoth.body.data).toEqual(created.body.data);
      expect(withBoth.body.included.map((w: { id: string; type: string }) => [w.type, w.id]).sort()).toEqual(
        [
          ['workspaces', dest.id],
          ['workspaces', source.id],
        ].sort(),
      );
    });

    it('answers 404 for an unknown run trigger', async () => {
      const res = await owner.api.get('/api/v2/run-triggers/rt-0000000000000000').expect(404);
      expect(res.body).toEqual({ errors: [{ status: '404', title: 'not found' }] });
      await owner.api.delete('/api/v2/run-triggers/rt-0000000000000000').expect(404);
    });

    it('deletes with 204 and no body, after which the trigger is gone', async () => {
      const dest = await workspace();
      const source = await workspace();
      const id = await createTrigger(owner, dest.id, source.id);
      const res = await owner.api.delete(`/api/v2/run-triggers/${id}`).expect(204);
      expect(res.text).toBe('');
      await owner.api.get(`/api/v2/run-triggers/${id}`).expect(404);
      await owner.api.delete(`/api/v2/run-triggers/${id}`).expect(404);
      await createTrigger(owner, dest.id, source.id);
    });
  });

  describe('following the workspaces', () => {
    it('shows the current names after a workspace is renamed', async () => {
      const dest = await workspace();
      const source = await workspace();
      const id = await createTrigger(owner, dest.id, source.id);
      const renamed = unique('renamed');
      await owner.api
        .patch(`/api/v2/workspaces/${source.id}`, {
          data: { type: 'workspaces', attributes: { name: renamed } },
        })
        .expect(200);
      const res = await owner.api.get(`/api/v2/run-triggers/${id}`).expect(200);
      expect(res.body.data.attributes).toEqual(
        expect.objectContaining({ 'workspace-name': dest.name, 'sourceable-name': renamed }),
      );
      const list = await listTriggers(owner, dest.id, 'inbound').expect(200);
      expect(list.body.data[0].attributes['sourceable-name']).toBe(renamed);
    });

    it('removes the triggers on both sides when a workspace is deleted', async () => {
      const upstream = await workspace();
      const middle = await workspace();
      const downstream = await workspace();
      const inbound = await createTrigger(owner, middle.id, upstream.id);
      const outbound = await createTrigger(owner, downstream.id, middle.id);
      await owner.api.delete(`/api/v2/workspaces/${middle.id}`).expect(204);
      await owner.api.get(`/api/v2/run-triggers/${inbound}`).expect(404);
      await owner.api.get(`/api/v2/run-triggers/${outbound}`).expect(404);
      const up = await listTriggers(owner, upstream.id, 'outbound').expect(200);
      expect(up.body.meta.pagination['total-count']).toBe(0);
      const down = await listTriggers(owner, downstream.id, 'inbound').expect(200);
      expect(down.body.meta.pagination['total-count']).toBe(0);
    });
  });
});

import {
  Actor,
  createOrganization,
  createUser,
  createWorkspace,
  Flag,
  grantWorkspace,
  memberWith,
  unique,
  startWithOwnedOrganization,
} from '../helpers/fixtures';
import type { Response } from 'supertest';
import { TestApp } from '../helpers/test-app';
import { createTrigger, listTriggers, postTrigger, sourceableError } from './helpers';
import { workspacePermissions } from '../helpers/shapes';

type Level = 'read' | 'plan' | 'write' | 'admin';

interface Row {
  who: string;
  /** How the caller gets in: the organization's owner, a team, or someone from another organization. */
  as: 'owner' | 'team' | 'outsider';
  flags?: Flag[];
  /** Team access to the destination and to the source workspaces. */
  destination?: Level;
  source?: Level;
  expect: { create: number; inbound: number; outbound: number; show: number; remove: number };
}

const ALL = { create: 201, inbound: 200, outbound: 200, show: 200, remove: 204 };
const NONE = { create: 404, inbound: 404, outbound: 404, show: 404, remove: 404 };

const MATRIX: Row[] = [
  { who: 'the organization owner', as: 'owner', expect: ALL },
  { who: 'a team that manages workspaces', as: 'team', flags: ['manage-workspaces'], expect: ALL },
  {
    who: 'a workspace admin who can read the source',
    as: 'team',
    destination: 'admin',
    source: 'read',
    expect: ALL,
  },
  {
    who: 'a read-only team on both workspaces',
    as: 'team',
    destination: 'read',
    source: 'read',
    expect: { create: 404, inbound: 200, outbound: 200, show: 200, remove: 404 },
  },
  {
    who: 'a team that can read every workspace',
    as: 'team',
    flags: ['read-workspaces'],
    expect: { create: 404, inbound: 200, outbound: 200, show: 200, remove: 404 },
  },
  {
    who: 'a writer on the destination (admin is needed)',
    as: 'team',
    destination: 'write',
    source: 'admin',
    expect: { create: 404, inbound: 200, outbound: 200, show: 200, remove: 404 },
  },
  {
    who: 'an admin of the destination who cannot see the source',
    as: 'team',
    destination: 'admin',
    expect: { create: 404, inbound: 200, outbound: 404, show: 200, remove: 204 },
  },
  {
    who: 'a reader of the source only',
    as: 'team',
    source: 'read',
    expect: { create: 404, inbound: 404, outbound: 200, show: 200, remove: 404 },
  },
  { who: 'a member with no workspace access', as: 'team', expect: NONE },
  { who: 'the owner of another organization', as: 'outsider', expect: NONE },
];

/** The status, and for a refusal the bare 404 that cannot be told apart from a missing resource. */
function expectStatus(res: Response, status: number): void {
  expect(res.status).toBe(status);
  if (status === 404) expect(res.body).toEqual({ errors: [{ status: '404', title: 'not found' }] });
}

describe('run trigger permissions', () => {
  let t: TestApp;
  let admin: Actor;
  let owner: Actor;
  let org: string;

  beforeAll(async () => {
    ({ t, admin, owner, org } = await startWithOwnedOrganization());
  });
  afterAll(() => t.close());

  describe.each(MATRIX)('$who', (row) => {
    let caller: Actor;
    let destination: string;
    let source: string;
    let spareSource: string;
    let trigger: string;

    beforeAll(async () => {
      destination = await createWorkspace(owner, org);
      source = await createWorkspace(owner, org);
      spareSource = await createWorkspace(owner, org);
      trigger = await createTrigger(owner, destination, source);
      if (row.as === 'owner') caller = owner;
      else if (row.as === 'outsider') {
        caller = await createUser(t, admin);
        await createOrganization(caller);
      } else {
        const member = await memberWith(t, admin, owner, org, row.flags ?? []);
        if (row.destination) await grantWorkspace(owner, member.teamId, destination, row.destination);
        for (const ws of [source, spareSource]) {
          if (row.source) await grantWorkspace(owner, member.teamId, ws, row.source);
        }
        caller = member;
      }
    });

    it(`creates: ${row.expect.create}`, async () => {
      const res = await postTrigger(caller, destination, spareSource);
      expectStatus(res, row.expect.create);
      const inbound = await listTriggers(owner, destination, 'inbound').expect(200);
      expect(inbound.body.meta.pagination['total-count']).toBe(row.expect.create === 201 ? 2 : 1);
    });

    it(`lists the destination's inbound triggers: ${row.expect.inbound}`, async () => {
      const res = await listTriggers(caller, destination, 'inbound');
      expectStatus(res, row.expect.inbound);
      if (res.status === 200) expect(res.body.data.map((d: { id: string }) => d.id)).toContain(trigger);
    });

    it(`lists the source's outbound triggers: ${row.expect.outbound}`, async () => {
      const res = await listTriggers(caller, source, 'outbound');
      expectStatus(res, row.expect.outbound);
      if (res.status === 200) expect(res.body.data.map((d: { id: string }) => d.id)).toEqual([trigger]);
    });

    it(`shows the trigger: ${row.expect.show}`, async () => {
      const res = await caller.api.get(`/api/v2/run-triggers/${trigger}`);
      expectStatus(res, row.expect.show);
      if (res.status === 200) expect(res.body.data.id).toBe(trigger);
    });

    it(`deletes the trigger: ${row.expect.remove}`, async () => {
      const res = await caller.api.delete(`/api/v2/run-triggers/${trigger}`);
      expectStatus(res, row.expect.remove);
      const after = await owner.api.get(`/api/v2/run-triggers/${trigger}`);
      expect(after.status).toBe(row.expect.remove === 204 ? 404 : 200);
    });
  });

  describe('include', () => {
    it('leaves out a related workspace the caller cannot read', async () => {
      const destination = await createWorkspace(owner, org);
      const hidden = await createWorkspace(owner, org);
      const visible = await createWorkspace(owner, org);
      const hiddenTrigger = await createTrigger(owner, destination, hidden);
      await createTrigger(owner, destination, visible);
      const reader = await memberWith(t, admin, owner, org);
      await grantWorkspace(owner, reader.teamId, destination, 'read');
      await grantWorkspace(owner, reader.teamId, visible, 'admin');

      const shown = await reader.api
        .get(`/api/v2/run-triggers/${hiddenTrigger}?include=workspace,sourceable`)
        .expect(200);
      expect(shown.body.data.relationships.sourceable.data).toEqual({ id: hidden, type: 'workspaces' });
      expect(shown.body.included.map((w: { id: string }) => w.id)).toEqual([destination]);

      const list = await listTriggers(reader, destination, 'inbound', '&include=workspace,sourceable');
      expect(list.status).toBe(200);
      expect(list.body.data).toHaveLength(2);
      const included = list.body.included as { id: string; attributes: { permissions: object } }[];
      expect(included.map((w) => w.id).sort()).toEqual([destination, visible].sort());
      expect(included.find((w) => w.id === destination)?.attributes.permissions).toEqual(
        workspacePermissions('read'),
      );
      expect(included.find((w) => w.id === visible)?.attributes.permissions).toEqual(
        expect.objectContaining({ 'can-update': true }),
      );
    });
  });

  describe('a refused cycle', () => {
    it('names only the workspaces the caller can read; the others stay unnamed and uncounted', async () => {
      const names = {
        a: unique('ws-a'),
        b: unique('ws-hidden-b'),
        c: unique('ws-hidden-c'),
        d: unique('ws-d'),
      };
      const a = await createWorkspace(owner, org, names.a);
      const b = await createWorkspace(owner, org, names.b);
      const c = await createWorkspace(owner, org, names.c);
      const d = await createWorkspace(owner, org, names.d);
      await createTrigger(owner, b, a);
      await createTrigger(owner, c, b);
      await createTrigger(owner, d, c);
      const caller = await memberWith(t, admin, owner, org);
      await grantWorkspace(owner, caller.teamId, a, 'admin');
      await grantWorkspace(owner, caller.teamId, d, 'read');

      const refused = await postTrigger(caller, a, d).expect(422);
      expect(refused.body).toEqual(
        sourceableError(
          `Run trigger would create a cycle: ${names.d} → ${names.a} → (workspaces you cannot read) → ${names.d}`,
        ),
      );
      for (const hidden of [names.b, names.c, b, c])
        expect(JSON.stringify(refused.body)).not.toContain(hidden);

      const byOwner = await postTrigger(owner, a, d).expect(422);
      expect(byOwner.body).toEqual(
        sourceableError(
          `Run trigger would create a cycle: ${names.d} → ${names.a} → ${names.b} → ${names.c} → ${names.d}`,
        ),
      );
    });
  });
});

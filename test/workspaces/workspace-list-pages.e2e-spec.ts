import { DataSource } from 'typeorm';
import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createTeam,
  createUser,
  createWorkspace,
} from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';

/** Enough workspaces that the deep pages (from offset 1,000) remember where they start. */
const TOTAL = 1_230;
const SIZE = 20;
const name = (i: number) => `ws-${String(i).padStart(5, '0')}`;

describe('Workspace lists of large organizations', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    org = await createOrganization(admin);
    await createWorkspace(admin, org, name(0));
    // The rest straight into the table, copying the first row: the API would take minutes.
    const ds = t.app.get(DataSource);
    const [template] = await ds.query(
      `SELECT w.organization_id, w.project_id, w.created_at, w.updated_at FROM workspaces w
         JOIN organizations o ON o.id = w.organization_id WHERE o.name = ?`,
      [org],
    );
    for (let from = 1; from < TOTAL; from += 200) {
      const rows = Array.from({ length: Math.min(200, TOTAL - from) }, (_, k) => from + k);
      await ds.query(
        `INSERT INTO workspaces (id, organization_id, project_id, name, description, engine_version, created_at, updated_at)
         VALUES ${rows.map(() => "(?, ?, ?, ?, NULL, 'latest', ?, ?)").join(', ')}`,
        rows.flatMap((i) => [
          `ws-bulk${String(i).padStart(9, '0')}`,
          template.organization_id,
          template.project_id,
          name(i),
          template.created_at,
          template.updated_at,
        ]),
      );
    }
  }, 60_000);

  afterAll(() => t.close());

  const page = async (number: number, actor = admin) => {
    const res = await actor.api
      .get(`/api/v2/organizations/${org}/workspaces?page%5Bnumber%5D=${number}&page%5Bsize%5D=${SIZE}`)
      .expect(200);
    return {
      names: (res.body.data as { attributes: { name: string } }[]).map((w) => w.attributes.name),
      meta: res.body.meta.pagination,
    };
  };
  const expected = (number: number, names: string[]) => names.slice((number - 1) * SIZE, number * SIZE);
  const all = Array.from({ length: TOTAL }, (_, i) => name(i));

  it('serves every deep page in order, paged through, again, or jumped to', async () => {
    for (let number = 49; number <= 62; number++) {
      expect((await page(number)).names).toEqual(expected(number, all));
    }
    expect((await page(60)).names).toEqual(expected(60, all));
    expect((await page(55)).names).toEqual(expected(55, all));
    const last = await page(62);
    expect(last.names).toEqual(all.slice(1_220));
    expect(last.meta).toMatchObject({
      'current-page': 62,
      'total-pages': 62,
      'total-count': TOTAL,
      'next-page': null,
    });
    expect((await page(63)).names).toEqual([]);
  });

  it('shows a deleted or renamed workspace at once, in the pages and the total', async () => {
    await page(58);
    await page(59);
    await admin.api.delete(`/api/v2/organizations/${org}/workspaces/${name(1_150)}`).expect(204);
    await admin.api
      .patch(`/api/v2/organizations/${org}/workspaces/${name(1_100)}`, {
        data: { type: 'workspaces', attributes: { name: 'zz-renamed' } },
      })
      .expect(200);
    const now = [...all.filter((n) => n !== name(1_150) && n !== name(1_100)), 'zz-renamed'];
    for (const number of [58, 59, 60, 62]) {
      const { names, meta } = await page(number);
      expect(names).toEqual(expected(number, now));
      expect(meta['total-count']).toBe(TOTAL - 1);
    }
  });

  it('counts and pages the workspaces a member was given, after each grant', async () => {
    const member = await createUser(t, admin);
    const teamId = await createTeam(admin, org);
    await admin.api
      .post(`/api/v2/teams/${teamId}/relationships/users`, { data: [{ type: 'users', id: member.userId }] })
      .expect(204);
    expect((await page(1, member)).meta['total-count']).toBe(0);
    const [ws] = (
      await admin.api
        .get(`/api/v2/organizations/${org}/workspaces?search%5Bname%5D=${name(1_200)}`)
        .expect(200)
    ).body.data;
    await admin.api
      .post('/api/v2/team-workspaces', {
        data: {
          type: 'team-workspaces',
          attributes: { access: 'read' },
          relationships: {
            team: { data: { type: 'teams', id: teamId } },
            workspace: { data: { type: 'workspaces', id: ws.id } },
          },
        },
      })
      .expect(201);
    const granted = await page(1, member);
    expect(granted.names).toEqual([name(1_200)]);
    expect(granted.meta['total-count']).toBe(1);
  });
});

import { send } from '../helpers/raw-http';
import { JSONAPI, startApp, TestApp } from '../helpers/test-app';
import { createFuzzFixtures } from './fixtures';
import { FUZZ_ROUTES, FuzzFixtures, FuzzRoute } from './routes';

/**
 * Every attribute of every route in FUZZ_ROUTES (nested members included), sent once with a lone
 * surrogate and once with `null` among otherwise valid attributes and with the real resource in
 * the path, so the value gets as far as it can towards the database. Text that is not
 * well-formed UTF-16 is a 422 pointing at the attribute; `null` is an answer, never a 5xx.
 */
const LONE_SURROGATES = ['\ud800', 'a\udfffb'];

interface SweepCase {
  route: FuzzRoute;
  /** JSON pointer of the attribute, e.g. `/data/attributes/organization-access/manage-policies`. */
  pointer: string;
  body: (f: FuzzFixtures, value: unknown) => unknown;
}

function sweepCases(): SweepCase[] {
  const cases: SweepCase[] = [];
  for (const route of FUZZ_ROUTES) {
    const body = route.body;
    if (body?.kind === 'resource') {
      const document = (f: FuzzFixtures, attributes: Record<string, unknown>) => ({
        data: { type: body.type, attributes: { ...route.sample?.(f), ...attributes } },
      });
      for (const name of body.attributes) {
        cases.push({
          route,
          pointer: `/data/attributes/${name}`,
          body: (f, value) => document(f, { [name]: value }),
        });
      }
      for (const [parent, members] of Object.entries(body.nested ?? {})) {
        for (const member of members) {
          cases.push({
            route,
            pointer: `/data/attributes/${parent}/${member}`,
            body: (f, value) => document(f, { [parent]: { [member]: value } }),
          });
        }
      }
    } else if (body?.kind === 'object') {
      for (const name of body.fields) {
        cases.push({ route, pointer: `/${name}`, body: (_f, value) => ({ [name]: value }) });
      }
    } else if (body?.kind === 'identifiers') {
      cases.push({
        route,
        pointer: '/data/0/id',
        body: (_f, value) => ({ data: [{ type: body.type, id: value }] }),
      });
    }
  }
  return cases;
}

const CASES = sweepCases();
const label = (c: SweepCase) => `${c.route.method} ${c.route.path} ${c.pointer}`;

describe('a lone surrogate or a null in every attribute of every route', () => {
  let t: TestApp;
  let adminToken: string;
  let fixtures: FuzzFixtures;

  beforeAll(async () => {
    t = await startApp();
    ({ adminToken, fixtures } = await createFuzzFixtures(t));
  });
  afterAll(() => t?.close());

  function request(c: SweepCase, value: unknown) {
    const params = c.route.method === 'DELETE' ? {} : (c.route.params?.(fixtures) ?? {});
    const path = c.route.path.replace(/:(\w+)/g, (_m, name: string) =>
      encodeURIComponent(params[name] ?? 'none'),
    );
    const body = JSON.stringify(c.body(fixtures, value));
    // Node's client sends no length with a DELETE body unless told.
    const headers: Record<string, string> = {
      'Content-Type': JSONAPI,
      'Content-Length': String(Buffer.byteLength(body)),
    };
    if (c.route.auth !== 'none') headers.Authorization = `Bearer ${adminToken}`;
    return send(t.origin, { method: c.route.method, path, headers, body });
  }

  it('covers the attributes named in the issue', () => {
    const labels = CASES.map(label);
    for (const expected of [
      'POST /api/v2/organizations /data/attributes/email',
      'PATCH /api/v2/organizations/:name /data/attributes/edition',
      'POST /api/v2/admin/users /data/attributes/email',
      'POST /admin/initial-admin-user /email',
      'PATCH /api/v2/teams/:id /data/attributes/visibility',
      'POST /api/v2/organizations/:org/teams /data/attributes/organization-access/read-projects',
    ]) {
      expect(labels).toContain(expected);
    }
  });

  it.each(LONE_SURROGATES.map((s) => [JSON.stringify(s), s]))(
    'refuses the text %s in every attribute with a 422 that points at it',
    async (_shown, value) => {
      const wrong: string[] = [];
      for (const c of CASES) {
        const res = await request(c, value);
        const body = res.status === 422 ? (JSON.parse(res.text) as { errors: unknown[] }) : undefined;
        const pointers = body?.errors.map((e) => (e as { source?: { pointer?: string } }).source?.pointer);
        if (res.headers['content-type'] !== JSONAPI || pointers?.[0] !== c.pointer) {
          wrong.push(`${label(c)} answered ${res.status} ${res.text.slice(0, 200)}`);
        }
      }
      expect(wrong).toEqual([]);
    },
  );

  it('answers null in every attribute with a JSON:API document, never a 5xx', async () => {
    const wrong: string[] = [];
    for (const c of CASES) {
      const res = await request(c, null);
      const doc = res.text ? (JSON.parse(res.text) as { errors?: unknown[] }) : {};
      const errorDocument = res.status >= 400 && Array.isArray(doc.errors) && doc.errors.length > 0;
      if (res.status >= 500 || (res.status >= 400 && !errorDocument)) {
        wrong.push(`${label(c)} answered ${res.status} ${res.text.slice(0, 200)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

import request from 'supertest';
import { DataSource } from 'typeorm';
import { writeAroundTracking } from '../helpers/untracked-write';
import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createProject,
  createUser,
  unique,
  startWithOwnedOrganization,
} from '../helpers/fixtures';
import { send } from '../helpers/raw-http';
import { client, JSONAPI, startApp, TestApp } from '../helpers/test-app';

jest.setTimeout(30_000);

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Remembered answers are given before routing (responseCacheMiddleware). These tests pin down that
 * such an answer is exactly what the full path would have answered: same bytes and headers, never
 * to other credentials, not past the token's expiry, under the same rate limit, counted under
 * the same route. Each test first proves the answer came from memory: the row is changed behind
 * the API's back, and the repeated read still shows the old value.
 */
describe('answers remembered before routing', () => {
  let t: TestApp;
  let admin: Actor;
  let owner: Actor;
  let org: string;

  beforeAll(async () => {
    // A long TTL: only a write, or the token's expiry, may end a remembered answer here.
    ({ t, admin, owner, org } = await startWithOwnedOrganization({ CACHE_TTL_MS: '60000' }));
  });
  afterAll(() => t.close());

  // A project: no memo keeps its row (a workspace's is, so a computed answer could show it too).
  const behindTheApi = (id: string, description: string) =>
    writeAroundTracking(
      t.app.get(DataSource),
      `UPDATE projects SET description = '${description}' WHERE id = '${id}'`,
    );

  /** A project whose description the owner has read once, then changed behind the API's back. */
  async function rememberedProject(): Promise<{ id: string; path: string; first: request.Response }> {
    const id = await createProject(owner, org);
    const path = `/api/v2/projects/${id}`;
    const first = await owner.api.get(path).expect(200);
    await behindTheApi(id, 'changed behind the API');
    return { id, path, first };
  }

  it('gives the same bytes and headers as the computed answer, with a request id of its own', async () => {
    const { path, first } = await rememberedProject();
    const again = await owner.api.get(path).set('X-Request-Id', 'second-read').expect(200);

    expect(again.text).toBe(first.text);
    expect(again.body.data.attributes.description).toBeNull();
    const withoutIdAndDate = (headers: Record<string, string>) => {
      const { date, 'x-request-id': id, ...rest } = headers;
      expect(date).toEqual(expect.any(String));
      return { id, rest };
    };
    const { id: firstId, rest: firstHeaders } = withoutIdAndDate(first.headers);
    const { id: againId, rest: againHeaders } = withoutIdAndDate(again.headers);
    expect(againHeaders).toEqual(firstHeaders);
    expect(againHeaders).toMatchObject({
      'content-type': JSONAPI,
      'x-content-type-options': 'nosniff',
    });
    expect(firstId).toEqual(expect.any(String));
    expect(againId).toBe('second-read');
  });

  it('never gives one credential’s answer to another, not even another token of the same user', async () => {
    const outsider = await createUser(t, admin);
    const second = await owner.api.post(`/api/v2/users/${owner.userId}/authentication-tokens`).expect(201);
    const ownerAgain = client(t, second.body.data.attributes.token as string);
    const { path } = await rememberedProject();

    await outsider.api.get(path).expect(404);
    const computed = await ownerAgain.get(path).expect(200);
    expect(computed.body.data.attributes.description).toBe('changed behind the API');
    const remembered = await owner.api.get(path).expect(200);
    expect(remembered.body.data.attributes.description).toBeNull();
  });

  it('stops answering for a token the moment it expires', async () => {
    const expiresAt = Date.now() + 2_000;
    const created = await owner.api
      .post(`/api/v2/users/${owner.userId}/authentication-tokens`, {
        data: {
          type: 'authentication-tokens',
          attributes: { 'expired-at': new Date(expiresAt).toISOString() },
        },
      })
      .expect(201);
    const shortLived = client(t, created.body.data.attributes.token as string);
    const id = await createProject(owner, org);
    const path = `/api/v2/projects/${id}`;
    await shortLived.get(path).expect(200);
    await behindTheApi(id, 'from memory?');
    const remembered = await shortLived.get(path).expect(200);
    expect(remembered.body.data.attributes.description).toBeNull();

    await pause(expiresAt - Date.now() + 50);
    await shortLived.get(path).expect(401);
    // The owner's long-lived token is unaffected.
    await owner.api.get(path).expect(200);
  });

  it('leaves a GET with a body to the full path, which refuses an unreadable one', async () => {
    const { path } = await rememberedProject();
    await owner.api.get(path).set('Content-Type', JSONAPI).send('{"data":').expect(400);
    const bodiless = await owner.api.get(path).expect(200);
    expect(bodiless.body.data.attributes.description).toBeNull();
  });

  it('counts a remembered answer under the route that computed it', async () => {
    const { path } = await rememberedProject();
    const route = 'method="GET",route="/api/v2/projects/:id",status="200"';
    const count = async () => {
      const text = (await request(t.origin).get('/metrics').expect(200)).text;
      const line = text.split('\n').find((l) => l.startsWith(`http_requests_total{${route}}`));
      return Number(line?.split(' ')[1] ?? 0);
    };
    const before = await count();
    for (let i = 0; i < 3; i++) {
      const res = await owner.api.get(path).expect(200);
      expect(res.body.data.attributes.description).toBeNull();
    }
    expect((await count()) - before).toBe(3);
  });
});

describe('remembered answers and the rate limit', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startApp({ CACHE_TTL_MS: '60000', RATE_LIMIT_PER_SECOND: '3' });
  });
  afterAll(() => t.close());

  it('spends the principal’s budget on every remembered answer as on a computed one', async () => {
    const admin = await bootstrapAdmin(t);
    const org = await createOrganization(admin, unique('org'));
    await pause(1_100);
    const path = `/api/v2/organizations/${org}`;
    const as = () => send(t.origin, { path, headers: { Authorization: `Bearer ${admin.token}` } });
    const first = await as();
    expect(first.status).toBe(200);
    const answers = [first, await as(), await as(), await as()];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(answers[1].text).toBe(first.text);
    expect(answers[2].headers['x-ratelimit-limit']).toBe('3');
    expect(JSON.parse(answers[3].text)).toEqual({
      errors: [
        { status: '429', title: 'too many requests', detail: "You have exceeded the API's rate limit." },
      ],
    });
    expect(Number(answers[3].headers['x-ratelimit-reset'])).toBeGreaterThan(0);

    await pause(1_100);
    const later = await as();
    expect(later.status).toBe(200);
    expect(later.text).toBe(first.text);
  });
});

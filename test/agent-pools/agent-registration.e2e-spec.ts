import request from 'supertest';
import {
  Actor,
  createUser,
  idOf,
  ISO_MILLIS,
  memberWith,
  unique,
  startWithOwnedOrganization,
} from '../helpers/fixtures';
import { TestApp } from '../helpers/test-app';
import { agentCall, createAgentToken, createPool, registerAgent } from './helpers';

describe('agent tokens and executor registration', () => {
  let t: TestApp;
  let admin: Actor;
  let owner: Actor;
  let org: string;
  let poolId: string;

  beforeAll(async () => {
    ({ t, admin, owner, org } = await startWithOwnedOrganization());
    poolId = await createPool(owner, org, unique('pool'));
  });
  afterAll(() => t.close());

  it('issues an agent token whose secret is shown once and never again', async () => {
    const res = await owner.api
      .post(`/api/v2/agent-pools/${poolId}/authentication-tokens`, {
        data: { type: 'authentication-tokens', attributes: { description: 'ci runners' } },
      })
      .expect(201);
    expect(res.body).toEqual({
      data: {
        id: expect.stringMatching(idOf('at')),
        type: 'authentication-tokens',
        attributes: {
          description: 'ci runners',
          token: expect.stringMatching(/^[0-9A-Za-z]{14}\.plinthv1\.[0-9A-Za-z]{48}$/),
          'last-used-at': null,
          'created-at': expect.stringMatching(ISO_MILLIS),
        },
        relationships: { 'created-by': { data: { type: 'users', id: owner.userId } } },
        links: { self: `/api/v2/authentication-tokens/${res.body.data.id}` },
      },
    });
    const shown = await owner.api.get(`/api/v2/authentication-tokens/${res.body.data.id}`).expect(200);
    expect(shown.body.data).toEqual({
      ...res.body.data,
      attributes: { ...res.body.data.attributes, token: null },
    });
    const listed = await owner.api.get(`/api/v2/agent-pools/${poolId}/authentication-tokens`).expect(200);
    expect(listed.body.data.map((d: { attributes: { token: unknown } }) => d.attributes.token)).not.toContain(
      res.body.data.attributes.token,
    );
    expect(listed.body.data).toContainEqual(shown.body.data);
  });

  it("accepts go-tfe's agent-tokens type and requires a description", async () => {
    await owner.api
      .post(`/api/v2/agent-pools/${poolId}/authentication-tokens`, {
        data: { type: 'agent-tokens', attributes: { description: 'from go-tfe' } },
      })
      .expect(201);
    const res = await owner.api
      .post(`/api/v2/agent-pools/${poolId}/authentication-tokens`, {
        data: { type: 'agent-tokens', attributes: {} },
      })
      .expect(422);
    expect(res.body.errors).toEqual([
      {
        status: '422',
        title: 'invalid attribute',
        detail: "Description can't be blank",
        source: { pointer: '/data/attributes/description' },
      },
    ]);
  });

  it('registers an executor and lists it as an idle agent of the pool', async () => {
    const { secret } = await createAgentToken(owner, poolId);
    const res = await agentCall(t, '/register', secret).send({ name: 'host-1' }).expect(201);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      'agent-id': expect.stringMatching(idOf('agent')),
      'pool-id': poolId,
      organization: org,
      'poll-interval-seconds': 1,
      'heartbeat-interval-seconds': 10,
      'claim-wait-max-seconds': 30,
    });
    const agentId = res.body['agent-id'];
    // The new agent's URL, as every 201 carries one: the links.self of the agent it shows.
    expect(res.headers.location).toBe(`/api/v2/agents/${agentId}`);
    const shown = await owner.api.get(res.headers.location).expect(200);
    expect(shown.body.data).toEqual({
      id: agentId,
      type: 'agents',
      attributes: {
        name: 'host-1',
        status: 'idle',
        'ip-address': expect.any(String),
        'last-ping-at': expect.stringMatching(ISO_MILLIS),
      },
      relationships: { 'agent-pool': { data: { type: 'agent-pools', id: poolId } } },
      links: { self: `/api/v2/agents/${agentId}` },
    });
    const listed = await owner.api.get(`/api/v2/agent-pools/${poolId}/agents`).expect(200);
    expect(listed.body.data).toContainEqual(shown.body.data);
    const pool = await owner.api.get(`/api/v2/agent-pools/${poolId}`).expect(200);
    expect(pool.body.data.attributes['agent-count']).toBeGreaterThanOrEqual(1);
  });

  it('notes when a token was last used', async () => {
    const token = await createAgentToken(owner, poolId);
    await registerAgent(t, token.secret);
    const shown = await owner.api.get(`/api/v2/authentication-tokens/${token.id}`).expect(200);
    expect(shown.body.data.attributes['last-used-at']).toMatch(ISO_MILLIS);
  });

  it('refuses registration without a token, with a user token or with an unknown secret', async () => {
    const body = { name: 'host-x' };
    for (const secret of [undefined, owner.token, 'nope.plinthv1.nope']) {
      const res = await agentCall(t, '/register', secret).send(body).expect(401);
      expect(res.body.errors[0]).toMatchObject({ status: '401', title: 'unauthorized' });
    }
  });

  it('does not let an agent token open user routes', async () => {
    const { secret } = await createAgentToken(owner, poolId);
    await request(t.origin)
      .get('/api/v2/account/details')
      .set('Authorization', `Bearer ${secret}`)
      .expect(401);
    await request(t.origin)
      .get(`/api/v2/agent-pools/${poolId}`)
      .set('Authorization', `Bearer ${secret}`)
      .expect(401);
  });

  it('answers a registration without a name with a 422 and a non-object body with a 400', async () => {
    const { secret } = await createAgentToken(owner, poolId);
    const blank = await agentCall(t, '/register', secret).send({}).expect(422);
    expect(blank.body.errors[0]).toMatchObject({ status: '422', detail: "Name can't be blank" });
    await agentCall(t, '/register', secret).send('[1]').expect(400);
  });

  it('refuses a revoked token from the next request on', async () => {
    const token = await createAgentToken(owner, poolId);
    await registerAgent(t, token.secret);
    await owner.api.delete(`/api/v2/authentication-tokens/${token.id}`).expect(204);
    await agentCall(t, '/register', token.secret).send({ name: 'again' }).expect(401);
    await owner.api.get(`/api/v2/authentication-tokens/${token.id}`).expect(404);
    await owner.api.delete(`/api/v2/authentication-tokens/${token.id}`).expect(404);
  });

  it('keeps user tokens working on the shared /authentication-tokens routes', async () => {
    const mine = await owner.api
      .post(`/api/v2/users/${owner.userId}/authentication-tokens`, {
        data: { type: 'authentication-tokens', attributes: { description: 'laptop' } },
      })
      .expect(201);
    const shown = await owner.api.get(`/api/v2/authentication-tokens/${mine.body.data.id}`).expect(200);
    expect(shown.body.data.attributes).toMatchObject({ kind: 'user', description: 'laptop', token: null });
    await owner.api.delete(`/api/v2/authentication-tokens/${mine.body.data.id}`).expect(204);
  });

  it('hides agent tokens from everyone but the organization owners', async () => {
    const token = await createAgentToken(owner, poolId);
    const manager = await memberWith(t, admin, owner, org, ['manage-workspaces']);
    const stranger = await createUser(t, admin);
    for (const actor of [manager, stranger]) {
      await actor.api.get(`/api/v2/authentication-tokens/${token.id}`).expect(404);
      await actor.api.delete(`/api/v2/authentication-tokens/${token.id}`).expect(404);
      await actor.api.get(`/api/v2/agent-pools/${poolId}/authentication-tokens`).expect(404);
      await actor.api
        .post(`/api/v2/agent-pools/${poolId}/authentication-tokens`, {
          data: { type: 'authentication-tokens', attributes: { description: 'x' } },
        })
        .expect(404);
    }
    await agentCall(t, '/register', token.secret).send({ name: 'still-valid' }).expect(201);
  });
});

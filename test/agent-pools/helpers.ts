import request from 'supertest';
import { Actor } from '../helpers/fixtures';
import { TestApp } from '../helpers/test-app';

export function poolBody(attributes: Record<string, unknown>, allowedWorkspaceIds?: string[]) {
  return {
    data: {
      type: 'agent-pools',
      attributes,
      ...(allowedWorkspaceIds
        ? {
            relationships: {
              'allowed-workspaces': { data: allowedWorkspaceIds.map((id) => ({ type: 'workspaces', id })) },
            },
          }
        : {}),
    },
  };
}

export async function createPool(
  actor: Actor,
  org: string,
  name: string,
  attributes: Record<string, unknown> = {},
  allowedWorkspaceIds?: string[],
): Promise<string> {
  const res = await actor.api.post(
    `/api/v2/organizations/${org}/agent-pools`,
    poolBody({ name, ...attributes }, allowedWorkspaceIds),
  );
  expect(res.status).toBe(201);
  return res.body.data.id;
}

export async function createAgentToken(
  actor: Actor,
  poolId: string,
  description = 'executor',
): Promise<{ id: string; secret: string }> {
  const res = await actor.api.post(`/api/v2/agent-pools/${poolId}/authentication-tokens`, {
    data: { type: 'authentication-tokens', attributes: { description } },
  });
  expect(res.status).toBe(201);
  return { id: res.body.data.id, secret: res.body.data.attributes.token };
}

/** A plain-JSON call of the executor protocol. */
export function agentCall(t: TestApp, path: string, secret?: string, agentId?: string) {
  let req = request(t.origin).post(`/api/v2/agent${path}`).set('Content-Type', 'application/json');
  if (secret) req = req.set('Authorization', `Bearer ${secret}`);
  if (agentId) req = req.set('X-Plinth-Agent', agentId);
  return req;
}

export async function registerAgent(t: TestApp, secret: string, name = 'host-1'): Promise<string> {
  const res = await agentCall(t, '/register', secret).send({ name });
  expect(res.status).toBe(201);
  return res.body['agent-id'];
}

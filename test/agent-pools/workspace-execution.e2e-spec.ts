import {
  Actor,
  createOrganization,
  createWorkspace,
  unique,
  startWithOwnedOrganization,
} from '../helpers/fixtures';
import { TestApp } from '../helpers/test-app';
import { WorkspacesService } from '../../src/workspaces/workspaces.service';
import { createPool } from './helpers';

const AGENT_POOL = { pointer: '/data/relationships/agent-pool' };

describe('workspace execution settings', () => {
  let t: TestApp;
  let owner: Actor;
  let org: string;

  const patch = (ws: string, attributes: Record<string, unknown>, relationships?: Record<string, unknown>) =>
    owner.api.patch(`/api/v2/workspaces/${ws}`, { data: { type: 'workspaces', attributes, relationships } });

  beforeAll(async () => {
    ({ t, owner, org } = await startWithOwnedOrganization());
  });
  afterAll(() => t.close());

  it('serializes the defaults: remote, no pool, no auto-apply', async () => {
    const ws = await createWorkspace(owner, org);
    const res = await owner.api.get(`/api/v2/workspaces/${ws}`).expect(200);
    expect(res.body.data.attributes).toMatchObject({
      'execution-mode': 'remote',
      'auto-apply': false,
      'auto-apply-run-trigger': false,
    });
    expect(res.body.data.relationships['agent-pool']).toEqual({ data: null });
  });

  it("binds a workspace to a pool through go-tfe's agent-pool-id or the relationship", async () => {
    const pool = await createPool(owner, org, unique('pool'));
    const ws = await createWorkspace(owner, org);
    const res = await patch(ws, { 'execution-mode': 'agent', 'agent-pool-id': pool }).expect(200);
    expect(res.body.data.attributes['execution-mode']).toBe('agent');
    expect(res.body.data.relationships['agent-pool']).toEqual({ data: { type: 'agent-pools', id: pool } });
    const other = await createPool(owner, org, unique('pool'));
    const moved = await patch(ws, {}, { 'agent-pool': { data: { type: 'agent-pools', id: other } } }).expect(
      200,
    );
    expect(moved.body.data.relationships['agent-pool'].data.id).toBe(other);
    const shown = await owner.api.get(`/api/v2/agent-pools/${other}`).expect(200);
    expect(shown.body.data.relationships.workspaces).toEqual({ data: [{ type: 'workspaces', id: ws }] });
    expect(await t.app.get(WorkspacesService).executionSettings(ws)).toEqual({
      executionMode: 'agent',
      agentPoolId: other,
      autoApply: false,
      autoApplyRunTrigger: false,
    });
  });

  it('creates a workspace in agent mode with its pool and auto-apply settings', async () => {
    const pool = await createPool(owner, org, unique('pool'));
    const res = await owner.api
      .post(`/api/v2/organizations/${org}/workspaces`, {
        data: {
          type: 'workspaces',
          attributes: {
            name: unique('ws'),
            'execution-mode': 'agent',
            'auto-apply': true,
            'auto-apply-run-trigger': true,
          },
          relationships: { 'agent-pool': { data: { type: 'agent-pools', id: pool } } },
        },
      })
      .expect(201);
    expect(res.body.data.attributes).toMatchObject({
      'execution-mode': 'agent',
      'auto-apply': true,
      'auto-apply-run-trigger': true,
    });
    expect(res.body.data.relationships['agent-pool'].data).toEqual({ type: 'agent-pools', id: pool });
  });

  it('needs a pool for agent mode and refuses one with another mode', async () => {
    const pool = await createPool(owner, org, unique('pool'));
    const ws = await createWorkspace(owner, org);
    const missing = await patch(ws, { 'execution-mode': 'agent' }).expect(422);
    expect(missing.body.errors).toEqual([
      {
        status: '422',
        title: 'invalid attribute',
        detail: 'Agent pool is required when the execution mode is agent',
        source: AGENT_POOL,
      },
    ]);
    const forbidden = await patch(ws, { 'execution-mode': 'remote', 'agent-pool-id': pool }).expect(422);
    expect(forbidden.body.errors[0].detail).toBe(
      'Agent pool can only be set when the execution mode is agent',
    );
    const unknown = await patch(ws, { 'execution-mode': 'agent', 'agent-pool-id': 'apool-missing000000000' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0]).toMatchObject({ detail: 'Agent pool not found', source: AGENT_POOL });
    await patch(ws, { 'execution-mode': 'sideways' }).expect(422);
    await patch(ws, { 'auto-apply': 'yes' }).expect(422);
  });

  it('accepts only pools that allow the workspace, and keeps a used pool from dropping it', async () => {
    const ws = await createWorkspace(owner, org);
    const closed = await createPool(owner, org, unique('closed'), { 'organization-scoped': false });
    const refused = await patch(ws, { 'execution-mode': 'agent', 'agent-pool-id': closed }).expect(422);
    expect(refused.body.errors[0].detail).toMatch(/not organization-scoped/);
    const open = await createPool(owner, org, unique('open'), { 'organization-scoped': false }, [ws]);
    await patch(ws, { 'execution-mode': 'agent', 'agent-pool-id': open }).expect(200);
    const cut = await owner.api
      .patch(`/api/v2/agent-pools/${open}`, {
        data: { type: 'agent-pools', relationships: { 'allowed-workspaces': { data: [] } } },
      })
      .expect(422);
    expect(cut.body.errors[0].detail).toMatch(/^Agent pool would no longer allow 1 workspace/);
  });

  it('refuses to delete a pool in use until its workspaces move (422), then deletes it', async () => {
    const pool = await createPool(owner, org, unique('busy'));
    const ws = await createWorkspace(owner, org);
    await patch(ws, { 'execution-mode': 'agent', 'agent-pool-id': pool }).expect(200);
    const res = await owner.api.delete(`/api/v2/agent-pools/${pool}`).expect(422);
    expect(res.body.errors[0].detail).toMatch(/^Agent pool is still used by 1 workspace \(.+\); move them/);
    const back = await patch(ws, { 'execution-mode': 'remote' }).expect(200);
    expect(back.body.data.relationships['agent-pool']).toEqual({ data: null });
    await owner.api.delete(`/api/v2/agent-pools/${pool}`).expect(204);
  });

  it('deletes an organization whose workspaces use its pools', async () => {
    const org2 = await createOrganization(owner);
    const pool = await createPool(owner, org2, unique('pool'));
    const ws = await createWorkspace(owner, org2);
    await patch(ws, { 'execution-mode': 'agent', 'agent-pool-id': pool }).expect(200);
    await owner.api.delete(`/api/v2/organizations/${org2}`).expect(204);
  });
});

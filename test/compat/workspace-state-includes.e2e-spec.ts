import { Actor, createWorkspace, startWithOwnedOrganization, unique } from '../helpers/fixtures';
import { TestApp } from '../helpers/test-app';
import { pushState, stateFile } from '../state-versions/state-fixtures';

jest.setTimeout(60_000);

/**
 * go-tfe's `Workspaces.ReadWithOptions` with `WSOutputs` and `WSCurrentStateVer` sends
 * `include=outputs,current-state-version`: the current state version, and its outputs as
 * `workspace-outputs` linked from the workspace's `outputs` relationship (sensitive values null).
 */
describe('workspace include=outputs,current-state-version, as the official client asks', () => {
  let t: TestApp;
  let owner: Actor;
  let org: string;
  let name: string;
  let ws: string;
  let version: string;
  let outputIds: Record<string, string>;

  beforeAll(async () => {
    ({ t, owner, org } = await startWithOwnedOrganization());
    name = unique('ws');
    ws = await createWorkspace(owner, org, name);
    version = await pushState(
      owner,
      ws,
      stateFile({
        nulls: 1,
        outputs: {
          greeting: { value: 'hello', type: 'string' },
          password: { value: 's3cret', type: 'string', sensitive: true },
        },
      }),
    );
    const outputs = await owner.api.get(`/api/v2/state-versions/${version}/outputs`).expect(200);
    outputIds = Object.fromEntries(
      (outputs.body.data as { id: string; attributes: { name: string } }[]).map((o) => [o.attributes.name, o.id]),
    );
  });
  afterAll(() => t.close());

  it('includes the current version and its outputs, the sensitive one without its value', async () => {
    const res = await owner.api
      .get(`/api/v2/organizations/${org}/workspaces/${name}?include=outputs%2Ccurrent-state-version`)
      .expect(200);
    expect(res.body.data.relationships.outputs).toEqual({
      data: [
        { id: outputIds.greeting, type: 'workspace-outputs' },
        { id: outputIds.password, type: 'workspace-outputs' },
      ],
    });
    expect(res.body.data.relationships['current-state-version']).toEqual({
      data: { id: version, type: 'state-versions' },
    });
    const shown = await owner.api.get(`/api/v2/state-versions/${version}`).expect(200);
    expect(res.body.included).toEqual([
      shown.body.data,
      {
        id: outputIds.greeting,
        type: 'workspace-outputs',
        attributes: { name: 'greeting', sensitive: false, 'output-type': 'string', value: 'hello' },
        links: { self: `/api/v2/state-version-outputs/${outputIds.greeting}` },
      },
      {
        id: outputIds.password,
        type: 'workspace-outputs',
        attributes: { name: 'password', sensitive: true, 'output-type': 'string', value: null },
        links: { self: `/api/v2/state-version-outputs/${outputIds.password}` },
      },
    ]);
    expect(JSON.stringify(res.body)).not.toContain('s3cret');
  });

  it('reads the same by id and in lists; snake_case current_state_version too', async () => {
    const byName = await owner.api
      .get(`/api/v2/organizations/${org}/workspaces/${name}?include=outputs,current-state-version`)
      .expect(200);
    const byId = await owner.api
      .get(`/api/v2/workspaces/${ws}?include=outputs,current_state_version`)
      .expect(200);
    expect(byId.body).toEqual(byName.body);
    const list = await owner.api
      .get(`/api/v2/organizations/${org}/workspaces?search[name]=${name}&include=outputs,current-state-version`)
      .expect(200);
    expect(list.body.data).toEqual([byName.body.data]);
    expect(list.body.included).toEqual(byName.body.included);
  });

  it('a workspace without state links no outputs and includes nothing', async () => {
    const empty = unique('ws');
    await createWorkspace(owner, org, empty);
    const res = await owner.api
      .get(`/api/v2/organizations/${org}/workspaces/${empty}?include=outputs,current-state-version`)
      .expect(200);
    expect(res.body.data.relationships.outputs).toEqual({ data: [] });
    expect(res.body.data.relationships['current-state-version']).toEqual({ data: null });
    expect(res.body.included).toEqual([]);
  });

  it('without include=outputs the workspace has no outputs relationship', async () => {
    const res = await owner.api.get(`/api/v2/workspaces/${ws}`).expect(200);
    expect(res.body.data.relationships.outputs).toBeUndefined();
    expect(res.body.included).toBeUndefined();
  });

  it('an unknown include is still refused', async () => {
    const res = await owner.api.get(`/api/v2/workspaces/${ws}?include=outputs,readme-nope`).expect(400);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ status: '400', source: { parameter: 'include' } }),
    ]);
    expect(res.body.errors[0].detail).toContain('readme-nope');
  });
});

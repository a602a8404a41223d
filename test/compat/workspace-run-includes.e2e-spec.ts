import { Actor, createWorkspace, startWithOwnedOrganization, unique } from '../helpers/fixtures';
import { TestApp } from '../helpers/test-app';
import { createRun, uploadedVersion } from '../runs/run-fixtures';

jest.setTimeout(60_000);

type Resource = { id: string; type: string; attributes: Record<string, unknown> };
const typesAndIds = (included: Resource[]) => included.map((r) => [r.type, r.id]);

/**
 * go-tfe v1.90.0's `WSIncludeOpt` also sends `current_configuration_version`,
 * `current_run.plan`, `current_run.configuration_version` and `readme`: the workspace's
 * configuration, and its current run with that run's plan and configuration version.
 */
describe('workspace include=current_run.plan,current_run.configuration_version,current_configuration_version', () => {
  let t: TestApp;
  let owner: Actor;
  let org: string;
  let name: string;
  let ws: string;
  let cv: string;
  let run: { id: string; planId: string };

  beforeAll(async () => {
    ({ t, owner, org } = await startWithOwnedOrganization());
    name = unique('ws');
    ws = await createWorkspace(owner, org, name);
    cv = await uploadedVersion(t, owner, ws);
    run = await createRun(owner, ws, {}, cv);
  });
  afterAll(() => t.close());

  const shown = async (path: string) => (await owner.api.get(path).expect(200)).body.data;

  it('includes the current run, its plan and its configuration version as their own reads show them', async () => {
    const res = await owner.api
      .get(`/api/v2/workspaces/${ws}?include=current_run.plan,current_run.configuration_version`)
      .expect(200);
    expect(res.body.data.relationships['current-run']).toEqual({ data: { id: run.id, type: 'runs' } });
    expect(res.body.included).toEqual([
      await shown(`/api/v2/runs/${run.id}`),
      await shown(`/api/v2/configuration-versions/${cv}`),
      await shown(`/api/v2/plans/${run.planId}`),
    ]);
    const [runRes, cvRes, planRes] = res.body.included as Resource[];
    expect(runRes.attributes.status).toEqual(expect.any(String));
    expect(cvRes.attributes).toMatchObject({ status: 'uploaded', source: 'tfe-api' });
    expect(planRes).toMatchObject({
      type: 'plans',
      attributes: {
        status: expect.any(String),
        'log-read-url': expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//),
      },
    });
    // The run links what was included.
    expect(runRes).toMatchObject({
      relationships: {
        plan: { data: { id: run.planId, type: 'plans' } },
        'configuration-version': { data: { id: cv, type: 'configuration-versions' } },
      },
    });
  });

  it('current_run.plan alone includes the run and its plan only', async () => {
    const res = await owner.api.get(`/api/v2/workspaces/${ws}?include=current_run.plan`).expect(200);
    expect(typesAndIds(res.body.included)).toEqual([
      ['runs', run.id],
      ['plans', run.planId],
    ]);
  });

  it('current_configuration_version links and includes the workspace configuration', async () => {
    const res = await owner.api
      .get(`/api/v2/organizations/${org}/workspaces/${name}?include=current_configuration_version`)
      .expect(200);
    expect(res.body.data.relationships['current-configuration-version']).toEqual({
      data: { id: cv, type: 'configuration-versions' },
    });
    expect(res.body.included).toEqual([await shown(`/api/v2/configuration-versions/${cv}`)]);
    const plain = await owner.api.get(`/api/v2/workspaces/${ws}`).expect(200);
    expect(plain.body.data.relationships['current-configuration-version']).toBeUndefined();
  });

  it('lists include each workspace’s own, each resource once; a workspace without any links null', async () => {
    const other = unique('ws');
    const otherId = await createWorkspace(owner, org, other);
    const empty = unique('ws');
    const emptyId = await createWorkspace(owner, org, empty);
    const otherCv = await uploadedVersion(t, owner, otherId);
    // A newer upload that is not yet used is the configuration now; the run keeps its own.
    const newer = await uploadedVersion(t, owner, ws);
    const res = await owner.api
      .get(
        `/api/v2/organizations/${org}/workspaces?page[size]=100` +
          '&include=current_run,current_run.configuration_version,current_configuration_version',
      )
      .expect(200);
    const byId = new Map(
      (res.body.data as { id: string; relationships: Record<string, unknown> }[]).map((w) => [w.id, w]),
    );
    const currentCv = (id: string) => byId.get(id)?.relationships['current-configuration-version'];
    expect(currentCv(ws)).toEqual({ data: { id: newer, type: 'configuration-versions' } });
    expect(currentCv(otherId)).toEqual({ data: { id: otherCv, type: 'configuration-versions' } });
    expect(currentCv(emptyId)).toEqual({ data: null });
    expect(typesAndIds(res.body.included)).toEqual(
      expect.arrayContaining([
        ['runs', run.id],
        ['configuration-versions', cv],
        ['configuration-versions', newer],
        ['configuration-versions', otherCv],
      ]),
    );
    expect(res.body.included).toHaveLength(4);
  });

  it('readme is accepted and includes nothing: Plinth keeps no README of a configuration', async () => {
    const res = await owner.api.get(`/api/v2/workspaces/${ws}?include=readme`).expect(200);
    expect(res.body.included).toEqual([]);
    expect(res.body.data.relationships.readme).toBeUndefined();
  });

  it('an unknown path under current_run is still refused with a 400', async () => {
    const res = await owner.api.get(`/api/v2/workspaces/${ws}?include=current_run.bogus`).expect(400);
    expect(res.body.errors[0]).toMatchObject({ status: '400', source: { parameter: 'include' } });
  });
});

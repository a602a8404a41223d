import request from 'supertest';
import { Actor, bootstrapAdmin, createOrganization, createWorkspace, unique } from '../helpers/fixtures';
import { JSONAPI, startApp, TestApp } from '../helpers/test-app';
import { b64, foreignPut, md5, stateFile } from './state-fixtures';

jest.setTimeout(120_000);

/**
 * The calls the real CLI makes (`cloud` block) for `terraform state push`, `state pull` and
 * `output`, one by one, with go-tfe's headers: what each call sends and the fields the CLI reads
 * from each answer.
 */
describe('the CLI state workflow, replayed call by call', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;
  let name: string;
  let ws: string;

  const OUTPUTS = {
    endpoint: { value: 'https://example.test', type: 'string' },
    db_password: { value: 'correct horse', type: 'string', sensitive: true },
    ports: { value: [80, 443], type: ['tuple', ['number', 'number']] },
  };

  /** go-tfe's request: bearer token, JSON:API Accept, the CLI's identification headers. */
  const tfe = (method: 'get' | 'post', path: string) =>
    request(t.origin)
      [method](path)
      .set('Authorization', `Bearer ${admin.token}`)
      .set('Accept', JSONAPI)
      .set('User-Agent', 'go-tfe')
      .set('Terraform-Version', '1.9.5')
      .set('X-Terraform-Integration', 'cloud');
  const tfePost = (path: string, body: unknown) =>
    tfe('post', path).set('Content-Type', JSONAPI).send(JSON.stringify(body));

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    org = await createOrganization(admin);
    name = unique('cli');
    ws = await createWorkspace(admin, org, name);
  });
  afterAll(() => t.close());

  /** Configure: the ping's headers, then the workspace by name with the fields the CLI reads. */
  async function configure(): Promise<void> {
    const ping = await tfe('get', '/api/v2/ping');
    expect(Number(ping.headers['tfp-api-version'])).toBeGreaterThanOrEqual(2.5);
    const workspace = await tfe('get', `/api/v2/organizations/${org}/workspaces/${name}`).expect(200);
    expect(workspace.body.data.id).toBe(ws);
    expect(workspace.body.data.attributes.permissions).toMatchObject({
      'can-read-state-versions': true,
      'can-create-state-versions': true,
      'can-force-delete': true,
    });
  }

  async function push(state: Buffer, json: Buffer): Promise<string> {
    await configure();
    // go-tfe's lock body: a JSON:API document with an empty type.
    await tfePost(`/api/v2/workspaces/${ws}/actions/lock`, {
      data: { type: '', attributes: { reason: 'Locked by Terraform' } },
    }).expect(200);
    const current = await tfe('get', `/api/v2/workspaces/${ws}/current-state-version`);
    if (current.status === 200) {
      await tfe('get', current.body.data.attributes['hosted-state-download-url'])
        .set('Accept', 'application/json')
        .expect(200);
    } else {
      expect(current.status).toBe(404);
    }
    const parsed = JSON.parse(state.toString()) as { serial: number; lineage: string };
    // StateVersions.Upload: metadata only (no state, no json-state), then the two foreign PUTs.
    const created = await tfePost(`/api/v2/workspaces/${ws}/state-versions`, {
      data: {
        type: 'state-versions',
        attributes: {
          serial: parsed.serial,
          md5: md5(state),
          lineage: parsed.lineage,
          force: false,
          'json-state-outputs': b64(Buffer.from(JSON.stringify(OUTPUTS))),
        },
      },
    }).expect(201);
    const sv = created.body.data;
    expect(sv.attributes.status).toBe('pending');
    // While the upload is outstanding the CLI's unlock is refused, and it tries again.
    const early = await tfePost(`/api/v2/workspaces/${ws}/actions/unlock`, undefined).expect(422);
    expect(JSON.stringify(early.body.errors)).toContain('latest state version is still pending');
    await Promise.all([
      foreignPut(t, sv.attributes['hosted-state-upload-url'], state).expect(200),
      foreignPut(t, sv.attributes['hosted-json-state-upload-url'], json).expect(200),
    ]);
    const reread = await tfe('get', `/api/v2/state-versions/${sv.id}`).expect(200);
    expect(reread.body.data.attributes.status).toBe('finalized');
    await tfePost(`/api/v2/workspaces/${ws}/actions/unlock`, undefined).expect(200);
    return sv.id as string;
  }

  it('state push: lock, read current, create, upload without Authorization, re-read, unlock', async () => {
    const lineage = 'f00d0000-1111-4222-8333-444455556666';
    const json = Buffer.from(
      JSON.stringify({ format_version: '1.0', terraform_version: '1.9.5', values: {} }),
    );
    await push(stateFile({ serial: 1, lineage, outputs: OUTPUTS, nulls: 1 }), json);
    // A second push finds the first as current and downloads it before writing serial 2.
    const second = await push(stateFile({ serial: 2, lineage, outputs: OUTPUTS, nulls: 2 }), json);
    const current = await tfe('get', `/api/v2/workspaces/${ws}/current-state-version`).expect(200);
    expect(current.body.data.id).toBe(second);
  });

  it('state pull: the current version, then its hosted-state-download-url with the bearer token', async () => {
    await configure();
    const current = await tfe('get', `/api/v2/workspaces/${ws}/current-state-version`).expect(200);
    const url = current.body.data.attributes['hosted-state-download-url'] as string;
    // go-tfe resolves a relative URL against the API address and sends its token with it.
    expect(url).toBe(`/api/v2/state-versions/${current.body.data.id}/download`);
    const res = await tfe('get', url).set('Accept', 'application/json').buffer(true).expect(200);
    expect(JSON.parse(res.text)).toMatchObject({ serial: 2, resources: expect.any(Array) });
  });

  it('output: current outputs with detailed types, then each sensitive value by its id', async () => {
    await configure();
    const outputs = await tfe('get', `/api/v2/workspaces/${ws}/current-state-version-outputs`).expect(200);
    const items = outputs.body.data as { id: string; attributes: Record<string, unknown> }[];
    // Any output without detailed-type would make the CLI download the whole state instead.
    for (const o of items) expect(o.attributes).toHaveProperty('detailed-type');
    expect(items.map((o) => [o.attributes.name, o.attributes.sensitive, o.attributes.value])).toEqual([
      ['db_password', true, null],
      ['endpoint', false, 'https://example.test'],
      ['ports', false, [80, 443]],
    ]);
    for (const o of items.filter((i) => i.attributes.sensitive)) {
      const one = await tfe('get', `/api/v2/state-version-outputs/${o.id}`).expect(200);
      expect(one.body.data.attributes.value).toBe('correct horse');
    }
  });
});

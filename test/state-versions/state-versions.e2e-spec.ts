import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createOrganizationToken,
  createTeamToken,
  createWorkspace,
  expectPagination,
  grantWorkspace,
  idOf,
  ISO_MILLIS,
  memberWith,
} from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import {
  b64,
  createBody,
  download,
  foreignPut,
  lock,
  md5,
  newLineage,
  pushState,
  stateFile,
  unlock,
} from './state-fixtures';

jest.setTimeout(120_000);

const OUTPUTS = {
  name: { value: 'web', type: 'string' },
  password: { value: 'hunter2-s3cret', type: 'string', sensitive: true },
  zones: { value: ['a', 'b'], type: ['list', 'string'] },
};

const NULL_PROVIDER = 'provider["registry.terraform.io/hashicorp/null"]';
const TF_PROVIDER = 'provider["terraform.io/builtin/terraform"]';

function summary(nulls: number) {
  return {
    resources: [
      { name: 'other', type: 'data.terraform_remote_state', count: 1, module: 'root', provider: TF_PROVIDER },
      ...(nulls
        ? [{ name: 'random', type: 'null_resource', count: nulls, module: 'root', provider: NULL_PROVIDER }]
        : []),
    ],
    modules: { root: { 'data.terraform-remote-state': 1, ...(nulls ? { 'null-resource': nulls } : {}) } },
    providers: {
      [TF_PROVIDER]: { 'data.terraform-remote-state': 1 },
      ...(nulls ? { [NULL_PROVIDER]: { 'null-resource': nulls } } : {}),
    },
  };
}

describe('state versions', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;

  beforeAll(async () => {
    t = await startApp({ MAX_STATE_BYTES: '200000' });
    admin = await bootstrapAdmin(t);
    org = await createOrganization(admin);
  });
  afterAll(() => t.close());

  const post = (actor: Actor, ws: string, body: unknown) =>
    actor.api.post(`/api/v2/workspaces/${ws}/state-versions`, body);
  const detail = (res: { body: { errors: { detail: string }[] } }) => res.body.errors[0].detail;

  describe('a state written inline', () => {
    let ws: string;
    let svId: string;
    const state = stateFile({ serial: 3, nulls: 2, outputs: OUTPUTS });

    beforeAll(async () => {
      ws = await createWorkspace(admin, org);
      await lock(admin, ws);
      const res = await post(admin, ws, createBody(state)).expect(201);
      svId = res.body.data.id;
      expect(res.headers.location).toBe(`/api/v2/state-versions/${svId}`);
      await unlock(admin, ws);
    });

    it('is finalized and current, with what was read from the state', async () => {
      const res = await admin.api.get(`/api/v2/workspaces/${ws}/current-state-version`).expect(200);
      const outputIds = res.body.data.relationships.outputs.data.map((o: { id: string }) => o.id);
      expect(outputIds).toHaveLength(3);
      expect(res.body).toEqual({
        data: {
          id: svId,
          type: 'state-versions',
          attributes: {
            'created-at': expect.stringMatching(ISO_MILLIS),
            serial: 3,
            status: 'finalized',
            size: state.length,
            'hosted-state-download-url': `/api/v2/state-versions/${svId}/download`,
            'hosted-json-state-download-url': null,
            'hosted-state-upload-url': null,
            'hosted-json-state-upload-url': null,
            intermediate: false,
            'resources-processed': true,
            ...summary(2),
            'state-version': 4,
            'terraform-version': '1.9.5',
            'vcs-commit-sha': null,
            'vcs-commit-url': null,
          },
          relationships: {
            workspace: { data: { id: ws, type: 'workspaces' } },
            run: { data: null },
            'created-by': { data: { id: admin.userId, type: 'users' } },
            outputs: { data: outputIds.map((id: string) => ({ id, type: 'state-version-outputs' })) },
            'rollback-state-version': { data: null },
          },
          links: { self: `/api/v2/state-versions/${svId}` },
        },
      });
      const shown = await admin.api.get(`/api/v2/state-versions/${svId}`).expect(200);
      expect(shown.body).toEqual(res.body);
    });

    it('downloads as it was written, with the bearer token only', async () => {
      const res = await download(t, admin, `/api/v2/state-versions/${svId}/download`).expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['content-length']).toBe(String(state.length));
      expect(res.body).toEqual(state);
      await download(t, { ...admin, token: 'nope' }, `/api/v2/state-versions/${svId}/download`).expect(401);
      await admin.api.get(`/api/v2/state-versions/${svId}/json-download`).expect(404);
    });

    it('keeps the state and output values encrypted at rest', async () => {
      const blobs = join(t.config.dataDir, 'blobs', 'state-versions', ws);
      const files = readdirSync(blobs);
      expect(files).toHaveLength(1);
      const stored = readFileSync(join(blobs, files[0]));
      expect(stored.subarray(0, 4).toString()).toBe('PLS1');
      expect(stored.includes(Buffer.from('hunter2-s3cret'))).toBe(false);
      expect(stored.includes(Buffer.from('null_resource'))).toBe(false);
      const rows: { sealed_value: string }[] = await t.app
        .get(DataSource)
        .query('SELECT sealed_value FROM state_version_outputs');
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(String(row.sealed_value)).not.toMatch(/hunter2|web/);
    });

    it('shows on the workspace: current-state-version, resource-count and the state permissions', async () => {
      const res = await admin.api.get(`/api/v2/workspaces/${ws}`).expect(200);
      expect(res.body.data.relationships['current-state-version']).toEqual({
        data: { id: svId, type: 'state-versions' },
      });
      expect(res.body.data.attributes['resource-count']).toBe(2);
      expect(res.body.data.attributes.permissions).toEqual({
        'can-update': true,
        'can-destroy': true,
        'can-queue-run': true,
        'can-queue-apply': true,
        'can-read-runs': true,
        'can-read-state-versions': true,
        'can-read-state-outputs': true,
        'can-create-state-versions': true,
        'can-lock': true,
        'can-unlock': true,
        'can-force-unlock': true,
        'can-force-delete': true,
        'can-read-variable': true,
        'can-update-variable': true,
      });
    });

    it('lists its outputs with values, and the current ones with sensitive values null', async () => {
      const all = await admin.api.get(`/api/v2/state-versions/${svId}/outputs`).expect(200);
      const byName = Object.fromEntries(
        all.body.data.map((o: { attributes: { name: string } }) => [o.attributes.name, o]),
      );
      expect(all.body.data.map((o: { attributes: { name: string } }) => o.attributes.name)).toEqual([
        'name',
        'password',
        'zones',
      ]);
      expectPagination(all.body, { current: 1, size: 20, prev: null, next: null, pages: 1, count: 3 });
      expect(byName.zones).toEqual({
        id: expect.stringMatching(idOf('wsout')),
        type: 'state-version-outputs',
        attributes: {
          name: 'zones',
          sensitive: false,
          type: 'array',
          'detailed-type': ['list', 'string'],
          value: ['a', 'b'],
        },
        links: { self: `/api/v2/state-version-outputs/${byName.zones.id}` },
      });
      expect(byName.password.attributes).toEqual({
        name: 'password',
        sensitive: true,
        type: 'string',
        'detailed-type': 'string',
        value: 'hunter2-s3cret',
      });

      const current = await admin.api
        .get(`/api/v2/workspaces/${ws}/current-state-version-outputs`)
        .expect(200);
      const currentPassword = current.body.data.find(
        (o: { attributes: { name: string } }) => o.attributes.name === 'password',
      );
      expect(currentPassword.attributes).toEqual({ ...byName.password.attributes, value: null });
      expect(current.body.data.find((o: { id: string }) => o.id === byName.name.id).attributes.value).toBe(
        'web',
      );

      const one = await admin.api.get(`/api/v2/state-version-outputs/${byName.password.id}`).expect(200);
      expect(one.body).toEqual({ data: byName.password });
      const paged = await admin.api
        .get(`/api/v2/workspaces/${ws}/current-state-version-outputs?page[size]=2&page[number]=2`)
        .expect(200);
      expect(paged.body.data.map((o: { attributes: { name: string } }) => o.attributes.name)).toEqual([
        'zones',
      ]);
    });

    it('includes its creator and its outputs', async () => {
      const res = await admin.api
        .get(`/api/v2/state-versions/${svId}?include=created_by,outputs`)
        .expect(200);
      const types = res.body.included.map((r: { type: string }) => r.type).sort();
      expect(types).toEqual([
        'state-version-outputs',
        'state-version-outputs',
        'state-version-outputs',
        'users',
      ]);
      await admin.api.get(`/api/v2/state-versions/${svId}?include=owner`).expect(400);
    });
  });

  describe('the two-step upload', () => {
    it('creates a pending version with one-time links, then finalizes it when the state arrives', async () => {
      const ws = await createWorkspace(admin, org);
      const state = stateFile({ serial: 1, nulls: 1, outputs: OUTPUTS });
      const json = Buffer.from(JSON.stringify({ format_version: '1.0', values: { outputs: {} } }));
      await lock(admin, ws);
      const created = await post(admin, ws, createBody(state, { inline: false })).expect(201);
      const id = created.body.data.id;
      expect(created.body.data.attributes).toMatchObject({
        status: 'pending',
        size: null,
        'hosted-state-download-url': null,
        'resources-processed': false,
        resources: [],
        modules: {},
        providers: {},
        'state-version': null,
        'terraform-version': null,
      });
      const { 'hosted-state-upload-url': stateUrl, 'hosted-json-state-upload-url': jsonUrl } =
        created.body.data.attributes;
      expect(stateUrl).toMatch(new RegExp(`^${t.origin}/uploads/[^/]+$`));
      expect(jsonUrl).toMatch(new RegExp(`^${t.origin}/uploads/[^/]+$`));
      expect(stateUrl).not.toBe(jsonUrl);
      await admin.api.get(`/api/v2/workspaces/${ws}/current-state-version`).expect(404);

      const refused = await admin.api.post(`/api/v2/workspaces/${ws}/actions/unlock`).expect(422);
      expect(detail(refused)).toContain('latest state version is still pending');

      await foreignPut(t, jsonUrl, json).expect(200);
      await foreignPut(t, jsonUrl, json).expect(409);
      const wrongBytes = stateFile({ serial: 1, padding: 3 });
      const mismatch = await foreignPut(t, stateUrl, wrongBytes).expect(422);
      expect(detail(mismatch)).toBe(
        'The MD5 hash of the uploaded state does not match the md5 the state version was created with',
      );
      await foreignPut(t, stateUrl, state).expect(200);
      const again = await foreignPut(t, stateUrl, state).expect(409);
      expect(detail(again)).toBe('This upload link has already been used');

      const shown = await admin.api.get(`/api/v2/state-versions/${id}`).expect(200);
      expect(shown.body.data.attributes).toMatchObject({
        status: 'finalized',
        size: state.length,
        'hosted-state-upload-url': null,
        'hosted-json-state-upload-url': null,
        'hosted-state-download-url': `/api/v2/state-versions/${id}/download`,
        'hosted-json-state-download-url': `/api/v2/state-versions/${id}/json-download`,
        'resources-processed': true,
        ...summary(1),
      });
      expect((await download(t, admin, `/api/v2/state-versions/${id}/download`).expect(200)).body).toEqual(
        state,
      );
      expect(
        (await download(t, admin, `/api/v2/state-versions/${id}/json-download`).expect(200)).body,
      ).toEqual(json);
      const current = await admin.api.get(`/api/v2/workspaces/${ws}/current-state-version`).expect(200);
      expect(current.body.data.id).toBe(id);
      await unlock(admin, ws);
    });

    it('discards older pending versions when a newer one is finalized; their links then refuse', async () => {
      const ws = await createWorkspace(admin, org);
      const lineage = newLineage();
      const older = stateFile({ serial: 1, lineage });
      const newer = stateFile({ serial: 2, lineage });
      await lock(admin, ws);
      const pending = await post(admin, ws, createBody(older, { inline: false })).expect(201);
      const finalized = await post(admin, ws, createBody(newer)).expect(201);
      const shown = await admin.api.get(`/api/v2/state-versions/${pending.body.data.id}`).expect(200);
      expect(shown.body.data.attributes).toMatchObject({
        status: 'discarded',
        'hosted-state-upload-url': null,
        'hosted-json-state-upload-url': null,
      });
      const late = await foreignPut(t, pending.body.data.attributes['hosted-state-upload-url'], older).expect(
        409,
      );
      expect(detail(late)).toBe(
        'This state version was discarded: a newer state version replaced it before its state arrived',
      );
      const current = await admin.api.get(`/api/v2/workspaces/${ws}/current-state-version`).expect(200);
      expect(current.body.data.id).toBe(finalized.body.data.id);
      await unlock(admin, ws);

      const listed = await admin.api
        .get(
          `/api/v2/state-versions?filter[workspace][name]=${await nameOf(ws)}&filter[organization][name]=${org}`,
        )
        .expect(200);
      expect(listed.body.data.map((v: { id: string }) => v.id)).toEqual([
        finalized.body.data.id,
        pending.body.data.id,
      ]);
      const discarded = await admin.api
        .get(
          `/api/v2/state-versions?filter[workspace][name]=${await nameOf(ws)}&filter[organization][name]=${org}` +
            '&filter[status]=discarded',
        )
        .expect(200);
      expect(discarded.body.data.map((v: { id: string }) => v.id)).toEqual([pending.body.data.id]);
    });

    it('gives up pending versions on a force-unlock (admin only), which frees the workspace', async () => {
      const ws = await createWorkspace(admin, org);
      const writer = await memberWith(t, admin, admin, org);
      await grantWorkspace(admin, writer.teamId, ws, 'write');
      await lock(writer, ws);
      const pending = await post(writer, ws, createBody(stateFile(), { inline: false })).expect(201);
      await writer.api.post(`/api/v2/workspaces/${ws}/actions/force-unlock`).expect(404);
      const res = await admin.api.post(`/api/v2/workspaces/${ws}/actions/force-unlock`).expect(200);
      expect(res.body.data.attributes.locked).toBe(false);
      await admin.api.post(`/api/v2/workspaces/${ws}/actions/force-unlock`).expect(409);
      const shown = await admin.api.get(`/api/v2/state-versions/${pending.body.data.id}`).expect(200);
      expect(shown.body.data.attributes.status).toBe('discarded');
      await lock(writer, ws);
      await unlock(writer, ws);
    });
  });

  async function nameOf(ws: string): Promise<string> {
    return (await admin.api.get(`/api/v2/workspaces/${ws}`).expect(200)).body.data.attributes.name;
  }

  describe('the rules of a state write', () => {
    let ws: string;
    const lineage = newLineage();

    beforeAll(async () => {
      ws = await createWorkspace(admin, org);
      await pushState(admin, ws, stateFile({ serial: 5, lineage }));
    });

    it('needs the lock, held by the caller', async () => {
      const res = await post(admin, ws, createBody(stateFile({ serial: 6, lineage }))).expect(409);
      expect(res.body.errors).toEqual([
        {
          status: '409',
          title: 'conflict',
          detail: 'This workspace is not locked and will only accept state uploads when locked',
        },
      ]);
      const other = await memberWith(t, admin, admin, org);
      await grantWorkspace(admin, other.teamId, ws, 'write');
      await lock(other, ws);
      const held = await post(admin, ws, createBody(stateFile({ serial: 6, lineage }))).expect(409);
      expect(detail(held)).toBe(
        'This workspace is locked by User: only the holder of its lock may upload state',
      );
      await unlock(other, ws);
    });

    describe('while locked', () => {
      beforeAll(() => lock(admin, ws));
      afterAll(() => unlock(admin, ws));

      it('refuses a lower serial, another lineage, and the same serial with other content (409)', async () => {
        const lower = await post(admin, ws, createBody(stateFile({ serial: 4, lineage }))).expect(409);
        expect(detail(lower)).toBe(
          'The serial provided in the state file is not greater than the serial currently known remotely',
        );
        const other = await post(
          admin,
          ws,
          createBody(stateFile({ serial: 6, lineage: newLineage() })),
        ).expect(409);
        expect(detail(other)).toMatch(
          /^The lineage provided in the state file does not match the value currently known/,
        );
        const same = await post(admin, ws, createBody(stateFile({ serial: 5, lineage, nulls: 1 }))).expect(
          409,
        );
        expect(detail(same)).toBe(
          'The MD5 hash of the state provided does not match what is currently known for the same serial number',
        );
      });

      it('accepts the same serial with the same content, and anything with force', async () => {
        await post(admin, ws, createBody(stateFile({ serial: 5, lineage }))).expect(201);
        const forced = await post(
          admin,
          ws,
          createBody(stateFile({ serial: 1, lineage: newLineage() }), { force: true }),
        ).expect(201);
        const current = await admin.api.get(`/api/v2/workspaces/${ws}/current-state-version`).expect(200);
        expect(current.body.data.id).toBe(forced.body.data.id);
        await post(admin, ws, createBody(stateFile({ serial: 5, lineage }), { force: true })).expect(201);
      });

      it('checks the declared md5, base64, JSON and serial against the state (422)', async () => {
        const state = stateFile({ serial: 9, lineage });
        const wrongMd5 = await post(admin, ws, createBody(state, { md5: md5(Buffer.from('x')) })).expect(422);
        expect(wrongMd5.body.errors).toEqual([
          {
            status: '422',
            title: 'invalid attribute',
            detail: 'Md5 does not match the MD5 hash of the decoded state',
            source: { pointer: '/data/attributes/md5' },
          },
        ]);
        const body = createBody(state);
        body.data.attributes.state = '!!not base64!!';
        expect(detail(await post(admin, ws, body).expect(422))).toBe('state must be base64 encoded');
        const notJson = Buffer.from('not json');
        const res = await post(admin, ws, createBody(notJson, { serial: 9, lineage, md5: md5(notJson) }));
        expect(res.status).toBe(422);
        expect(detail(res)).toBe('The state was refused: the state is not valid JSON');
        const other = await post(admin, ws, createBody(state, { serial: 10 })).expect(422);
        expect(detail(other)).toBe(
          'The state was refused: the serial inside the state (9) is not the serial of the state version (10)',
        );
        const missing = await post(admin, ws, {
          data: { type: 'state-versions', attributes: { serial: 'x' } },
        });
        expect(missing.status).toBe(422);
        expect(missing.body.errors.map((e: { detail: string }) => e.detail)).toEqual([
          'Serial must be an integer',
          "Md5 can't be blank",
        ]);
      });

      it('refuses a state past MAX_STATE_BYTES with 413, inline or uploaded', async () => {
        const big = stateFile({ serial: 20, lineage, padding: 200_001 });
        const inline = await post(admin, ws, createBody(big)).expect(413);
        expect(inline.body.errors[0].title).toBe('payload too large');
        const pending = await post(admin, ws, createBody(big, { inline: false })).expect(201);
        await foreignPut(t, pending.body.data.attributes['hosted-state-upload-url'], big).expect(413);
        await foreignPut(
          t,
          pending.body.data.attributes['hosted-state-upload-url'],
          stateFile({ serial: 20, lineage }),
        ).expect(422);
        await admin.api.post(`/api/v2/workspaces/${ws}/actions/force-unlock`).expect(200);
        await lock(admin, ws);
      });
    });
  });

  describe('rollback', () => {
    it('copies an older finalized version into a new current one (admin, holding the lock)', async () => {
      const ws = await createWorkspace(admin, org);
      const lineage = newLineage();
      const first = await pushState(admin, ws, stateFile({ serial: 1, lineage, outputs: OUTPUTS, nulls: 3 }));
      await pushState(admin, ws, stateFile({ serial: 2, lineage }));
      const body = {
        data: {
          type: 'state-versions',
          relationships: { 'rollback-state-version': { data: { type: 'state-versions', id: first } } },
        },
      };
      const unlocked = await admin.api.patch(`/api/v2/workspaces/${ws}/state-versions`, body).expect(409);
      expect(detail(unlocked)).toBe(
        'This workspace is not locked and will only accept state uploads when locked',
      );
      const writer = await memberWith(t, admin, admin, org);
      await grantWorkspace(admin, writer.teamId, ws, 'write');
      await lock(writer, ws);
      await writer.api.patch(`/api/v2/workspaces/${ws}/state-versions`, body).expect(404);
      await unlock(writer, ws);

      await lock(admin, ws);
      const res = await admin.api.patch(`/api/v2/workspaces/${ws}/state-versions`, body).expect(201);
      const copy = res.body.data;
      expect(copy.id).not.toBe(first);
      expect(copy.relationships['rollback-state-version']).toEqual({
        data: { id: first, type: 'state-versions' },
      });
      expect(copy.attributes).toMatchObject({ serial: 1, status: 'finalized', ...summary(3) });
      expect(copy.relationships.outputs.data).toHaveLength(3);
      const current = await admin.api.get(`/api/v2/workspaces/${ws}/current-state-version`).expect(200);
      expect(current.body.data.id).toBe(copy.id);
      expect(
        (await download(t, admin, `/api/v2/state-versions/${copy.id}/download`).expect(200)).body,
      ).toEqual(stateFile({ serial: 1, lineage, outputs: OUTPUTS, nulls: 3 }));
      const outputs = await admin.api
        .get(`/api/v2/workspaces/${ws}/current-state-version-outputs`)
        .expect(200);
      expect(outputs.body.data.map((o: { attributes: { value: unknown } }) => o.attributes.value)).toEqual([
        'web',
        null,
        ['a', 'b'],
      ]);
      const workspace = await admin.api.get(`/api/v2/workspaces/${ws}`).expect(200);
      expect(workspace.body.data.attributes['resource-count']).toBe(3);
      const bad = await admin.api
        .patch(`/api/v2/workspaces/${ws}/state-versions`, {
          data: { type: 'state-versions', relationships: {} },
        })
        .expect(422);
      expect(detail(bad)).toBe('Rollback state version is required');
      await unlock(admin, ws);
    });
  });

  describe('lists', () => {
    it('need both name filters (400) and a known status, and are paginated newest first', async () => {
      const ws = await createWorkspace(admin, org);
      const name = await nameOf(ws);
      const lineage = newLineage();
      const ids: string[] = [];
      await lock(admin, ws);
      for (let serial = 1; serial <= 3; serial++) {
        ids.push(
          (await post(admin, ws, createBody(stateFile({ serial, lineage }))).expect(201)).body.data.id,
        );
      }
      await unlock(admin, ws);
      const missing = await admin.api
        .get(`/api/v2/state-versions?filter[workspace][name]=${name}`)
        .expect(400);
      expect(missing.body.errors[0]).toMatchObject({
        detail: 'filter[organization][name] is required',
        source: { parameter: 'filter[organization][name]' },
      });
      await admin.api
        .get(
          `/api/v2/state-versions?filter[workspace][name]=${name}&filter[organization][name]=${org}&filter[status]=x`,
        )
        .expect(400);
      const page = await admin.api
        .get(
          `/api/v2/state-versions?filter[workspace][name]=${name}&filter[organization][name]=${org}&page[size]=2`,
        )
        .expect(200);
      expect(page.body.data.map((v: { id: string }) => v.id)).toEqual([ids[2], ids[1]]);
      expectPagination(page.body, { current: 1, size: 2, prev: null, next: 2, pages: 2, count: 3 });
      const bySerial = await admin.api
        .get(
          `/api/v2/state-versions?filter[workspace][name]=${name}&filter[organization][name]=${org}&sort=serial`,
        )
        .expect(200);
      expect(bySerial.body.data.map((v: { id: string }) => v.id)).toEqual(ids);
      await admin.api
        .get(`/api/v2/state-versions?filter[workspace][name]=nope&filter[organization][name]=${org}`)
        .expect(404);
    });
  });

  describe('permissions', () => {
    let ws: string;
    let svId: string;
    let outputId: string;

    beforeAll(async () => {
      ws = await createWorkspace(admin, org);
      svId = await pushState(admin, ws, stateFile({ serial: 1, outputs: OUTPUTS }));
      const outputs = await admin.api.get(`/api/v2/state-versions/${svId}/outputs`).expect(200);
      outputId = outputs.body.data[0].id;
    });

    it('lets read access read state and outputs, but not lock or write', async () => {
      const reader = await memberWith(t, admin, admin, org);
      await grantWorkspace(admin, reader.teamId, ws, 'read');
      await reader.api.get(`/api/v2/workspaces/${ws}/current-state-version`).expect(200);
      await reader.api.get(`/api/v2/state-versions/${svId}`).expect(200);
      await download(t, reader, `/api/v2/state-versions/${svId}/download`).expect(200);
      await reader.api.get(`/api/v2/state-versions/${svId}/outputs`).expect(200);
      await reader.api.get(`/api/v2/state-version-outputs/${outputId}`).expect(200);
      await reader.api.get(`/api/v2/workspaces/${ws}/current-state-version-outputs`).expect(200);
      const shown = await reader.api.get(`/api/v2/workspaces/${ws}`).expect(200);
      expect(shown.body.data.attributes.permissions).toMatchObject({
        'can-read-state-versions': true,
        'can-read-state-outputs': true,
        'can-create-state-versions': false,
        'can-lock': false,
        'can-force-unlock': false,
        'can-force-delete': false,
      });
      await reader.api.post(`/api/v2/workspaces/${ws}/actions/lock`).expect(404);
      await post(reader, ws, createBody(stateFile({ serial: 2 }))).expect(404);
      // Upload links are write capabilities: a reader is not shown them.
      await lock(admin, ws);
      const pending = await post(admin, ws, createBody(stateFile({ serial: 2 }), { inline: false })).expect(
        201,
      );
      expect(pending.body.data.attributes['hosted-state-upload-url']).toMatch(/\/uploads\//);
      const seen = await reader.api.get(`/api/v2/state-versions/${pending.body.data.id}`).expect(200);
      expect(seen.body.data.attributes).toMatchObject({
        status: 'pending',
        'hosted-state-upload-url': null,
        'hosted-json-state-upload-url': null,
      });
      await admin.api.post(`/api/v2/workspaces/${ws}/actions/force-unlock`).expect(200);
    });

    it('lets a team token holding the lock write state, never an organization token', async () => {
      const team = await memberWith(t, admin, admin, org);
      await grantWorkspace(admin, team.teamId, ws, 'write');
      const asTeam = await createTeamToken(t, admin, team.teamId);
      await lock(asTeam, ws);
      await post(asTeam, ws, createBody(stateFile({ serial: 2 }))).expect(201);
      await unlock(asTeam, ws);
      const asOrganization = await createOrganizationToken(t, admin, org);
      // The workspace's permissions say so to each: the team may write state, the organization not.
      const permissions = async (actor: typeof asTeam) =>
        (await actor.api.get(`/api/v2/workspaces/${ws}`).expect(200)).body.data.attributes.permissions;
      expect((await permissions(asTeam))['can-create-state-versions']).toBe(true);
      expect(await permissions(asOrganization)).toMatchObject({
        'can-create-state-versions': false,
        'can-read-state-versions': true,
        'can-lock': true,
      });
      await lock(asOrganization, ws);
      const refused = await post(asOrganization, ws, createBody(stateFile({ serial: 3 }))).expect(404);
      expect(detail(refused)).toBe('Organization tokens cannot write state: use a user or team token');
      await unlock(asOrganization, ws);
    });

    it('answers 404 to other organizations for every state route', async () => {
      const stranger = await memberWith(t, admin, admin, await createOrganization(admin));
      const paths = [
        `/api/v2/workspaces/${ws}/current-state-version`,
        `/api/v2/state-versions/${svId}`,
        `/api/v2/state-versions/${svId}/download`,
        `/api/v2/state-versions/${svId}/json-download`,
        `/api/v2/state-versions/${svId}/outputs`,
        `/api/v2/state-version-outputs/${outputId}`,
        `/api/v2/workspaces/${ws}/current-state-version-outputs`,
        `/api/v2/state-versions?filter[workspace][name]=${await nameOf(ws)}&filter[organization][name]=${org}`,
      ];
      for (const path of paths) await stranger.api.get(path).expect(404);
      await post(stranger, ws, createBody(stateFile({ serial: 9 }))).expect(404);
      await stranger.api
        .patch(`/api/v2/workspaces/${ws}/state-versions`, {
          data: {
            type: 'state-versions',
            relationships: { 'rollback-state-version': { data: { type: 'state-versions', id: svId } } },
          },
        })
        .expect(404);
      await stranger.api.post(`/api/v2/workspaces/${ws}/actions/safe-delete`).expect(404);
      await stranger.api.post(`/api/v2/workspaces/${ws}/actions/force-unlock`).expect(404);
    });
  });

  describe('deleting a workspace with state', () => {
    it('is refused by safe-delete while resources are managed or it is locked; DELETE forces it', async () => {
      const ws = await createWorkspace(admin, org);
      await pushState(admin, ws, stateFile({ serial: 1, nulls: 2 }));
      const managing = await admin.api.post(`/api/v2/workspaces/${ws}/actions/safe-delete`).expect(409);
      expect(detail(managing)).toBe(
        'workspace cannot be safely deleted because it is still managing resources',
      );
      await lock(admin, ws);
      const locked = await admin.api
        .post(`/api/v2/organizations/${org}/workspaces/${await nameOf(ws)}/actions/safe-delete`)
        .expect(409);
      expect(detail(locked)).toBe(
        'Workspace is currently locked. Workspace must be unlocked before it can be safely deleted',
      );
      await admin.api.delete(`/api/v2/workspaces/${ws}`).expect(204);
      await admin.api.get(`/api/v2/workspaces/${ws}`).expect(404);
      expect(() => readdirSync(join(t.config.dataDir, 'blobs', 'state-versions', ws))).toThrow();
    });

    it('lets safe-delete delete a workspace whose state manages nothing', async () => {
      const ws = await createWorkspace(admin, org);
      await pushState(admin, ws, stateFile({ serial: 1 }));
      await admin.api.post(`/api/v2/workspaces/${ws}/actions/safe-delete`).expect(204);
      await admin.api.get(`/api/v2/workspaces/${ws}`).expect(404);
    });
  });

  it('refuses a run of another workspace (422) and names the run it was given', async () => {
    const ws = await createWorkspace(admin, org);
    await lock(admin, ws);
    const body = createBody(stateFile({ serial: 1 })) as { data: Record<string, unknown> };
    body.data.relationships = { run: { data: { type: 'runs', id: 'run-aaaaaaaaaaaaaaaa' } } };
    const res = await post(admin, ws, body).expect(422);
    expect(res.body.errors[0]).toMatchObject({
      detail: 'Run not found in this workspace',
      source: { pointer: '/data/relationships/run/data/id' },
    });
    await unlock(admin, ws);
  });

  it('refuses a client-generated id with 403, as every create does', async () => {
    const ws = await createWorkspace(admin, org);
    await lock(admin, ws);
    const body = createBody(stateFile({ serial: 1 })) as { data: Record<string, unknown> };
    body.data.id = 'sv-mine';
    const res = await post(admin, ws, body).expect(403);
    expect(res.body.errors[0]).toMatchObject({ source: { pointer: '/data/id' } });
    await admin.api.get(`/api/v2/workspaces/${ws}/current-state-version`).expect(404);
    await unlock(admin, ws);
  });

  it('accepts json-state-outputs only as base64 JSON', async () => {
    const ws = await createWorkspace(admin, org);
    await lock(admin, ws);
    const body = createBody(stateFile({ serial: 1 }));
    const attributes = body.data.attributes as Record<string, unknown>;
    attributes['json-state-outputs'] = b64(Buffer.from('{"x": 1'));
    expect(detail(await post(admin, ws, body).expect(422))).toBe('json-state-outputs is not valid JSON');
    attributes['json-state-outputs'] = b64(
      Buffer.from('{"x": {"value": 1, "type": "number", "sensitive": false}}'),
    );
    await post(admin, ws, body).expect(201);
    await unlock(admin, ws);
  });
});

import {
  Actor,
  bootstrapAdmin,
  createOrganization,
  createWorkspace,
  grantWorkspace,
  idOf,
  ISO_MILLIS,
  memberWith,
} from '../helpers/fixtures';
import { errorsOf } from '../helpers/shapes';
import { TestApp } from '../helpers/test-app';
import { createConfiguration, ncBody, startNotificationApp, Tripwire } from './notification-fixtures';
import { Receiver } from './receiver';

jest.setTimeout(60_000);

describe('notification configurations', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;
  let ws: string;
  const tripwire = new Tripwire();
  const receivers: Receiver[] = [];

  async function receiver(token: string | null = null): Promise<Receiver> {
    const r = await new Receiver(token).start();
    receivers.push(r);
    return r;
  }

  beforeAll(async () => {
    t = await startNotificationApp(tripwire);
    admin = await bootstrapAdmin(t);
    org = await createOrganization(admin);
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.stop()));
    await t.close();
  });
  beforeEach(async () => {
    tripwire.armed = false;
    ws = await createWorkspace(admin, org);
  });

  it('creates an enabled generic configuration after a signed verification, and shows it', async () => {
    const r = await receiver('s3cret-token');
    const created = await admin.api
      .post(
        `/api/v2/workspaces/${ws}/notification-configurations`,
        ncBody({
          name: 'ops webhook',
          'destination-type': 'generic',
          enabled: true,
          url: r.url,
          token: 's3cret-token',
          triggers: ['run:created', 'run:errored'],
        }),
      )
      .expect(201);
    const id = created.body.data.id as string;
    expect(created.headers.location).toBe(`/api/v2/notification-configurations/${id}`);
    expect(created.body).toEqual({
      data: {
        id: expect.stringMatching(idOf('nc')),
        type: 'notification-configurations',
        attributes: {
          name: 'ops webhook',
          'destination-type': 'generic',
          enabled: true,
          url: r.url,
          token: null,
          triggers: ['run:created', 'run:errored'],
          'email-addresses': [],
          'delivery-responses': [
            {
              url: r.url,
              body: 'answer 200',
              code: '200',
              headers: expect.objectContaining({ 'x-receiver': ['test'], 'content-type': ['text/plain'] }),
              'sent-at': expect.stringMatching(ISO_MILLIS),
              successful: 'true',
            },
          ],
          'created-at': expect.stringMatching(ISO_MILLIS),
          'updated-at': expect.stringMatching(ISO_MILLIS),
        },
        relationships: {
          subscribable: { data: { type: 'workspaces', id: ws } },
          users: { data: [] },
        },
        links: { self: `/api/v2/notification-configurations/${id}` },
      },
    });
    expect(r.received).toHaveLength(1);
    const [verification] = r.received;
    expect(verification.signatureValid).toBe(true);
    expect(verification.headers['content-type']).toBe('application/json');
    expect(verification.headers['x-plinth-delivery']).toMatch(idOf('ncd'));
    expect(verification.body).toEqual({
      payload_version: 1,
      notification_configuration_id: id,
      run_url: null,
      run_id: null,
      run_message: null,
      run_created_at: null,
      run_created_by: null,
      workspace_id: null,
      workspace_name: null,
      organization_name: null,
      notifications: [
        {
          message: 'Verification of test',
          trigger: 'verification',
          run_status: null,
          run_updated_at: null,
          run_updated_by: null,
        },
      ],
    });
    const shown = await admin.api.get(`/api/v2/notification-configurations/${id}`).expect(200);
    expect(shown.body.data).toEqual(created.body.data);
  });

  it('accepts the singular type of the documentation and stores a disabled one without sending', async () => {
    const r = await receiver();
    const res = await admin.api
      .post(
        `/api/v2/workspaces/${ws}/notification-configurations`,
        ncBody({ name: 'quiet', 'destination-type': 'slack', url: r.url }, 'notification-configuration'),
      )
      .expect(201);
    expect(res.body.data.attributes).toMatchObject({
      enabled: false,
      triggers: [],
      'delivery-responses': [],
    });
    expect(r.received).toHaveLength(0);
  });

  it('refuses to create an enabled configuration whose verification fails, storing nothing', async () => {
    const r = (await receiver()).reply(500);
    const res = await admin.api
      .post(
        `/api/v2/workspaces/${ws}/notification-configurations`,
        ncBody({ name: 'broken', 'destination-type': 'generic', enabled: true, url: r.url }),
      )
      .expect(400);
    expect(res.body).toEqual(errorsOf(400, { detail: 'Verification failed: The destination answered 500' }));
    const list = await admin.api.get(`/api/v2/workspaces/${ws}/notification-configurations`).expect(200);
    expect(list.body.data).toEqual([]);
    expect(list.body.meta.pagination).toMatchObject({ 'total-count': 0 });
  });

  it('enables nothing when the verification of an update fails, and records the answer', async () => {
    const r = await receiver();
    const id = await createConfiguration(admin, ws, {
      name: 'later',
      'destination-type': 'generic',
      url: r.url,
    });
    r.reply(404);
    const res = await admin.api
      .patch(`/api/v2/notification-configurations/${id}`, ncBody({ enabled: true, name: 'renamed' }))
      .expect(400);
    expect(res.body).toEqual(errorsOf(400, { detail: 'Verification failed: The destination answered 404' }));
    const shown = await admin.api.get(`/api/v2/notification-configurations/${id}`).expect(200);
    expect(shown.body.data.attributes).toMatchObject({
      name: 'later',
      enabled: false,
      'delivery-responses': [expect.objectContaining({ code: '404', successful: 'false' })],
    });

    const ok = await admin.api
      .patch(
        `/api/v2/notification-configurations/${id}`,
        ncBody({ enabled: true, triggers: ['run:completed'] }),
      )
      .expect(200);
    expect(ok.body.data.attributes).toMatchObject({ enabled: true, triggers: ['run:completed'] });
    expect(ok.body.data.attributes['delivery-responses'].map((d: { code: string }) => d.code)).toEqual([
      '200',
      '404',
    ]);
  });

  it('verifies on demand: 200 when the destination accepts, 400 when it does not', async () => {
    const r = await receiver('tok');
    const id = await createConfiguration(admin, ws, {
      name: 'on demand',
      'destination-type': 'generic',
      url: r.url,
      token: 'tok',
    });
    const ok = await admin.api.post(`/api/v2/notification-configurations/${id}/actions/verify`).expect(200);
    expect(ok.body.data.attributes['delivery-responses'][0]).toMatchObject({
      code: '200',
      successful: 'true',
    });
    expect(r.received[0].signatureValid).toBe(true);
    r.reply(503);
    const failed = await admin.api
      .post(`/api/v2/notification-configurations/${id}/actions/verify`)
      .expect(400);
    expect(failed.body).toEqual(
      errorsOf(400, { detail: 'Verification failed: The destination answered 503' }),
    );
    // A token changed by an update signs from then on; the old one no longer verifies.
    await admin.api
      .patch(`/api/v2/notification-configurations/${id}`, ncBody({ token: 'other' }))
      .expect(200);
    await admin.api.post(`/api/v2/notification-configurations/${id}/actions/verify`).expect(200);
    expect(r.received[2].signatureValid).toBe(false);
  });

  it('answers 422 for each broken rule', async () => {
    const res = await admin.api
      .post(
        `/api/v2/workspaces/${ws}/notification-configurations`,
        ncBody({ name: '', 'destination-type': 'pager', triggers: ['run:exploded'] }),
      )
      .expect(422);
    expect(res.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort()).toEqual([
      '/data/attributes/destination-type',
      '/data/attributes/name',
    ]);
    const noUrl = await admin.api
      .post(
        `/api/v2/workspaces/${ws}/notification-configurations`,
        ncBody({ name: 'x', 'destination-type': 'generic', triggers: ['run:exploded'] }),
      )
      .expect(422);
    expect(noUrl.body).toEqual(
      errorsOf(
        422,
        { detail: 'Triggers has an unknown trigger: run:exploded', pointer: '/data/attributes/triggers' },
        { detail: "Url can't be blank", pointer: '/data/attributes/url' },
      ),
    );
    const scheme = await admin.api
      .post(
        `/api/v2/workspaces/${ws}/notification-configurations`,
        ncBody({ name: 'x', 'destination-type': 'generic', url: 'ftp://example.com/x' }),
      )
      .expect(422);
    expect(scheme.body).toEqual(
      errorsOf(422, { detail: 'Url must be http or https', pointer: '/data/attributes/url' }),
    );
  });

  it('keeps at most 20 configurations per workspace', async () => {
    const r = await receiver();
    for (let i = 0; i < 20; i++) {
      await createConfiguration(admin, ws, { name: `n${i}`, 'destination-type': 'generic', url: r.url });
    }
    const res = await admin.api
      .post(
        `/api/v2/workspaces/${ws}/notification-configurations`,
        ncBody({ name: 'one too many', 'destination-type': 'generic', url: r.url }),
      )
      .expect(422);
    expect(res.body).toEqual(
      errorsOf(422, { detail: 'A workspace can have at most 20 notification configurations' }),
    );
    const page = await admin.api
      .get(`/api/v2/workspaces/${ws}/notification-configurations?page[size]=5&page[number]=4`)
      .expect(200);
    expect(page.body.data.map((d: { attributes: { name: string } }) => d.attributes.name)).toEqual([
      'n15',
      'n16',
      'n17',
      'n18',
      'n19',
    ]);
    expect(page.body.meta.pagination).toEqual({
      'current-page': 4,
      'page-size': 5,
      'prev-page': 3,
      'next-page': null,
      'total-pages': 4,
      'total-count': 20,
    });
  });

  it('lets only workspace admins manage configurations; others get 404', async () => {
    const r = await receiver();
    const id = await createConfiguration(admin, ws, {
      name: 'guarded',
      'destination-type': 'generic',
      url: r.url,
    });
    const writer = await memberWith(t, admin, admin, org);
    await grantWorkspace(admin, writer.teamId, ws, 'write');
    const stranger = await memberWith(t, admin, admin, await createOrganization(admin));
    for (const who of [writer, stranger]) {
      await who.api.get(`/api/v2/workspaces/${ws}/notification-configurations`).expect(404);
      await who.api.get(`/api/v2/notification-configurations/${id}`).expect(404);
      await who.api.patch(`/api/v2/notification-configurations/${id}`, ncBody({ name: 'x' })).expect(404);
      await who.api.post(`/api/v2/notification-configurations/${id}/actions/verify`).expect(404);
      await who.api.delete(`/api/v2/notification-configurations/${id}`).expect(404);
      await who.api
        .post(
          `/api/v2/workspaces/${ws}/notification-configurations`,
          ncBody({ name: 'x', 'destination-type': 'generic', url: r.url }),
        )
        .expect(404);
    }
    const workspaceAdmin = await memberWith(t, admin, admin, org);
    await grantWorkspace(admin, workspaceAdmin.teamId, ws, 'admin');
    await workspaceAdmin.api.get(`/api/v2/notification-configurations/${id}`).expect(200);
    await workspaceAdmin.api.delete(`/api/v2/notification-configurations/${id}`).expect(204);
    await admin.api.get(`/api/v2/notification-configurations/${id}`).expect(404);
  });

  describe('destinations that are not public', () => {
    const REFUSED: [string, string][] = [
      ['http://127.0.0.2/hook', '127.0.0.2, which is a loopback address'],
      ['http://127.2/hook', '127.0.0.2, which is a loopback address'],
      ['http://2130706434/hook', '127.0.0.2, which is a loopback address'],
      ['http://0x7f000002/hook', '127.0.0.2, which is a loopback address'],
      ['http://[::1]/hook', '::1, which is a loopback address'],
      ['http://0.0.0.0/hook', '0.0.0.0, which is an unspecified address'],
      ['http://[::]/hook', '::, which is an unspecified address'],
      ['http://10.0.0.1/hook', '10.0.0.1, which is a private address'],
      ['http://172.16.5.4/hook', '172.16.5.4, which is a private address'],
      ['http://192.168.1.1/hook', '192.168.1.1, which is a private address'],
      ['http://100.64.0.1/hook', '100.64.0.1, which is a carrier-grade NAT address'],
      ['http://169.254.169.254/latest/meta-data', '169.254.169.254, which is a cloud metadata address'],
      ['http://169.254.1.1/hook', '169.254.1.1, which is a link-local address'],
      ['http://224.0.0.1/hook', '224.0.0.1, which is a multicast address'],
      ['http://255.255.255.255/hook', '255.255.255.255, which is a broadcast address'],
      ['http://[ff02::1]/hook', 'ff02::1, which is a multicast address'],
      ['http://[fe80::1]/hook', 'fe80::1, which is a link-local address'],
      ['http://[fd00::1]/hook', 'fd00::1, which is a unique-local address'],
      ['http://[::ffff:10.0.0.1]/hook', '::ffff:a00:1, which is a private address'],
      ['http://[::ffff:169.254.169.254]/hook', '::ffff:a9fe:a9fe, which is a cloud metadata address'],
      ['http://[::ffff:7f00:2]/hook', '::ffff:7f00:2, which is a loopback address'],
      ['http://[::10.0.0.1]/hook', '::a00:1, which is an IPv4-compatible address'],
      ['http://[64:ff9b::a00:1]/hook', '64:ff9b::a00:1, which is a NAT64 (RFC 6052) address'],
      ['http://[2002:a00:1::]/hook', '2002:a00:1::, which is a 6to4 address'],
    ];
    const REFUSED_HOSTS: [string, string][] = [
      [
        'http://internal.example.test/hook',
        'host internal.example.test resolves to 10.1.2.3, which is a private address',
      ],
      [
        'http://metadata.example.test/hook',
        'host metadata.example.test resolves to 169.254.169.254, which is a cloud metadata address',
      ],
      [
        'http://mapped.example.test/hook',
        'host mapped.example.test resolves to ::ffff:127.0.0.2, which is a loopback address',
      ],
      [
        'http://ula.example.test/hook',
        'host ula.example.test resolves to fd12:3456::1, which is a unique-local address',
      ],
      [
        'http://mixed.example.test/hook',
        'host mixed.example.test resolves to 192.168.0.10, which is a private address',
      ],
    ];

    it.each([
      ...REFUSED.map(([url, why]): [string, string] => [
        url,
        `Url points at ${why} that notifications may not reach`,
      ]),
      ...REFUSED_HOSTS.map(([url, why]): [string, string] => [
        url,
        `Url ${why} that notifications may not reach`,
      ]),
    ])('refuses %s at create and update (422) without connecting', async (url, detail) => {
      tripwire.armed = true;
      const before = tripwire.connections.length;
      const res = await admin.api
        .post(
          `/api/v2/workspaces/${ws}/notification-configurations`,
          ncBody({ name: 'ssrf', 'destination-type': 'generic', enabled: true, url }),
        )
        .expect(422);
      expect(res.body).toEqual(errorsOf(422, { detail, pointer: '/data/attributes/url' }));
      const r = await receiver();
      tripwire.armed = false;
      const id = await createConfiguration(admin, ws, {
        name: 'ok',
        'destination-type': 'generic',
        url: r.url,
      });
      tripwire.armed = true;
      const before2 = tripwire.connections.length;
      const update = await admin.api
        .patch(`/api/v2/notification-configurations/${id}`, ncBody({ url, enabled: true }))
        .expect(422);
      expect(update.body).toEqual(errorsOf(422, { detail, pointer: '/data/attributes/url' }));
      expect(tripwire.connections.length).toBe(before2);
      expect(before2).toBe(before);
      await admin.api.delete(`/api/v2/notification-configurations/${id}`).expect(204);
    });

    it('reaches an allowed network through a host name, connecting to the address it checked', async () => {
      const r = await receiver();
      const url = r.url.replace('127.0.0.1', 'receiver.example.test');
      const before = tripwire.connections.length;
      await createConfiguration(admin, ws, {
        name: 'named',
        'destination-type': 'generic',
        enabled: true,
        url,
      });
      expect(tripwire.connections.slice(before)).toEqual(['127.0.0.1']);
      expect(r.received[0].headers.host).toBe(new URL(url).host);
    });
  });
});

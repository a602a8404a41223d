import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { Actor, bootstrapAdmin, createOrganization, createUser, createWorkspace } from '../helpers/fixtures';
import { TestApp } from '../helpers/test-app';
import { createRun, uploadedVersion } from '../runs/run-fixtures';
import { ncBody, startNotificationApp, Tripwire } from './notification-fixtures';

jest.setTimeout(60_000);

interface Mail {
  from: string;
  to: string[];
  raw: string;
}

/** An SMTP server on loopback that accepts everything and keeps each message. */
async function startMailServer(): Promise<{ server: SMTPServer; port: number; mails: Mail[] }> {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address).sort(),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.server.address() as AddressInfo).port, mails };
}

describe('email notifications', () => {
  let t: TestApp;
  let admin: Actor;
  let mail: Awaited<ReturnType<typeof startMailServer>>;

  beforeAll(async () => {
    mail = await startMailServer();
    t = await startNotificationApp(new Tripwire(), {
      SMTP_URL: `smtp://127.0.0.1:${mail.port}`,
      NOTIFICATION_MAIL_FROM: 'plinth@example.com',
    });
    admin = await bootstrapAdmin(t);
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => mail.server.close(() => resolve()));
  });

  it('mails the addresses and users of a configuration, in plain text with the run link', async () => {
    const org = await createOrganization(admin);
    const ws = await createWorkspace(admin, org);
    await uploadedVersion(t, admin, ws);
    const reader = await createUser(t, admin);
    const created = await admin.api
      .post(`/api/v2/workspaces/${ws}/notification-configurations`, {
        data: {
          type: 'notification-configurations',
          attributes: {
            name: 'on call',
            'destination-type': 'email',
            enabled: true,
            triggers: ['run:created'],
            'email-addresses': ['oncall@example.com'],
          },
          relationships: { users: { data: [{ type: 'users', id: reader.userId }] } },
        },
      })
      .expect(201);
    // Enabling an email destination sends nothing: it is verified on demand only.
    expect(created.body.data.attributes).toMatchObject({ url: null, 'delivery-responses': [] });
    expect(created.body.data.relationships.users).toEqual({ data: [{ type: 'users', id: reader.userId }] });
    expect(mail.mails).toHaveLength(0);

    await admin.api
      .post(`/api/v2/notification-configurations/${created.body.data.id}/actions/verify`)
      .expect(200);
    expect(mail.mails).toHaveLength(1);
    expect(mail.mails[0].raw).toContain('Subject: Verification of on call');

    const run = await createRun(admin, ws, { message: 'mail me' });
    await eventually(() => expect(mail.mails).toHaveLength(2));
    const [, sent] = mail.mails;
    const me = await reader.api.get('/api/v2/account/details').expect(200);
    expect(sent.from).toBe('plinth@example.com');
    expect(sent.to).toEqual(['oncall@example.com', me.body.data.attributes.email].sort());
    expect(sent.raw).toMatch(/^X-Plinth-Delivery: ncd-[0-9A-Za-z]{16}\r?$/m);
    expect(sent.raw).toMatch(/^Content-Type: text\/plain/m);
    // The text is quoted-printable: soft line breaks undone, it reads as Plinth wrote it.
    const text = sent.raw.replace(/=\r?\n/g, '');
    expect(text).toContain(`Run Created: run ${run.id} in workspace ${org}/`);
    expect(text).toContain('Message: mail me');
    expect(text).toMatch(new RegExp(`Run: http://.+/api/v2/runs/${run.id}`));
  });

  it('refuses email options on other destinations, and users that do not exist', async () => {
    const org = await createOrganization(admin);
    const ws = await createWorkspace(admin, org);
    const res = await admin.api
      .post(
        `/api/v2/workspaces/${ws}/notification-configurations`,
        ncBody({
          name: 'x',
          'destination-type': 'generic',
          url: 'http://127.0.0.1:9/x',
          'email-addresses': ['a@example.com'],
        }),
      )
      .expect(422);
    expect(res.body.errors[0].detail).toBe('Email addresses and users are for email destinations only');
    const ghost = await admin.api
      .post(`/api/v2/workspaces/${ws}/notification-configurations`, {
        data: {
          type: 'notification-configurations',
          attributes: { name: 'x', 'destination-type': 'email' },
          relationships: { users: { data: [{ type: 'users', id: 'user-0000000000000000' }] } },
        },
      })
      .expect(422);
    expect(ghost.body.errors[0]).toMatchObject({
      detail: 'Users not found: user-0000000000000000',
      source: { pointer: '/data/relationships/users' },
    });
  });
});

async function eventually(check: () => unknown, tries = 200): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      await check();
      return;
    } catch (err) {
      if (i >= tries) throw err;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

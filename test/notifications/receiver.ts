import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/** One request a receiver got. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  body: Record<string, unknown>;
  /** Whether X-TFE-Notification-Signature matched the body under the receiver's token. */
  signatureValid: boolean | null;
}

/** What the receiver answers next: a status, or `hang` (never answers). */
export type Reply = number | 'hang';

/**
 * A webhook receiver on loopback: records what it gets, checks the signature the way the docs tell
 * receivers to (HMAC-SHA512 of the raw body, constant-time comparison), answers from a script of
 * replies (then 200).
 */
export class Receiver {
  readonly received: Received[] = [];
  private readonly replies: Reply[] = [];
  private readonly hanging: ServerResponse[] = [];
  private readonly waiters: { count: number; resolve: () => void }[] = [];
  private server!: Server;
  url = '';

  constructor(private readonly token: string | null = null) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const sent = req.headers['x-tfe-notification-signature'];
        let signatureValid: boolean | null = null;
        if (this.token !== null) {
          const expected = Buffer.from(createHmac('sha512', this.token).update(raw).digest('hex'));
          const given = Buffer.from(typeof sent === 'string' ? sent : '');
          signatureValid = given.length === expected.length && timingSafeEqual(given, expected);
        }
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(raw) as Record<string, unknown>;
        } catch {
          body = {};
        }
        this.received.push({ path: req.url ?? '', headers: req.headers, raw, body, signatureValid });
        const reply = this.replies.shift() ?? 200;
        if (reply === 'hang') this.hanging.push(res);
        else
          res.writeHead(reply, { 'content-type': 'text/plain', 'x-receiver': 'test' }).end(`answer ${reply}`);
        for (const w of [...this.waiters]) {
          if (this.received.length >= w.count) {
            this.waiters.splice(this.waiters.indexOf(w), 1);
            w.resolve();
          }
        }
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
    return this;
  }

  /** The next answers, in order. */
  reply(...replies: Reply[]): this {
    this.replies.push(...replies);
    return this;
  }

  /** Forgets the scripted answers not used yet: 200 from now on. */
  clearReplies(): this {
    this.replies.length = 0;
    return this;
  }

  /** Resolves once `count` requests arrived in all. */
  waitFor(count: number): Promise<void> {
    if (this.received.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  /** Requests whose notification has this trigger. */
  withTrigger(trigger: string): Received[] {
    return this.received.filter(
      (r) => (r.body.notifications as { trigger: string }[] | undefined)?.[0]?.trigger === trigger,
    );
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

import { createServer, IncomingMessage, request, Server } from 'node:http';
import { AddressInfo, Socket } from 'node:net';

/**
 * What the proxy does with one request: pass it on (`forward`), answer 503 itself (`refuse`),
 * close the connection without an answer (`drop`), or pass it on and then close the connection
 * instead of relaying the answer (`lose-answer`: the server acted, the client never heard).
 */
export type ProxyMode = 'forward' | 'refuse' | 'drop' | 'lose-answer';

export interface ProxiedRequest {
  method: string;
  path: string;
  mode: ProxyMode;
  /** What the server answered, for the requests that reached it. */
  upstream?: number;
}

/**
 * A loopback stand-in for the network between an executor and Plinth: it forwards to the app
 * and, as `decide` says, fails some requests the ways an absent or restarting server does. The
 * Host header goes through unchanged, so the links the app signs point back at the proxy.
 */
export class FlakyProxy {
  readonly seen: ProxiedRequest[] = [];
  decide: (req: IncomingMessage) => ProxyMode = () => 'forward';
  origin = '';
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  constructor(private readonly target: string) {}

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const mode = this.decide(req);
      const entry: ProxiedRequest = { method: req.method ?? 'GET', path: req.url ?? '', mode };
      this.seen.push(entry);
      if (mode === 'drop') {
        req.resume();
        req.socket.destroy();
        return;
      }
      if (mode === 'refuse') {
        req.resume();
        res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '0' });
        res.end('{"errors":[{"status":"503","title":"service unavailable"}]}');
        return;
      }
      const target = new URL(this.target);
      const upstream = request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
          agent: false,
        },
        (answer) => {
          entry.upstream = answer.statusCode;
          if (mode === 'lose-answer') {
            answer.resume();
            answer.on('end', () => req.socket.destroy());
            return;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => req.socket.destroy());
      req.pipe(upstream);
    });
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    this.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** The requests whose path matches, in the order they came. */
  requests(path: RegExp): ProxiedRequest[] {
    return this.seen.filter((r) => path.test(r.path));
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

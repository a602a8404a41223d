import { Agent, request } from 'node:http';
import type { SideLoad } from './scenarios';

/** One request of a paced load: what to send, and what a good answer's status is. */
export interface PacedRequest {
  method: string;
  path: string;
  body?: string;
  ok: number;
  /** Sees a good answer's body (the id a later request needs). */
  answered?: (text: string) => void;
}

/**
 * Requests sent at `rate` per second in all, evenly spaced (autocannon's own pacing sends each
 * second's share back to back and then waits), over at most `connections` kept-alive connections:
 * when all are busy, a request waits for the next free one and the schedule catches up.
 * `next` gives each request as its turn comes.
 */
export function pacedLoad(
  origin: string,
  token: string,
  rate: number,
  connections: number,
  next: () => PacedRequest,
): SideLoad {
  const url = new URL(origin);
  let agent = new Agent({ keepAlive: true, maxSockets: connections });
  const counted = { requests: 0, errors: 0 };
  const interval = 1000 / rate;
  let timer: NodeJS.Timeout | undefined;
  let inFlight = 0;
  const idle: (() => void)[] = [];
  let sent = 0;
  let started = 0;

  const send = (r: PacedRequest) =>
    new Promise<void>((resolve) => {
      inFlight++;
      const req = request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          path: r.path,
          method: r.method,
          headers: {
            authorization: `Bearer ${token}`,
            accept: 'application/vnd.api+json',
            ...(r.body === undefined
              ? {}
              : { 'content-type': 'application/vnd.api+json', 'content-length': Buffer.byteLength(r.body) }),
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => {
            counted.requests++;
            if (res.statusCode === r.ok) r.answered?.(text);
            else counted.errors++;
            done();
          });
        },
      );
      const done = () => {
        inFlight--;
        idle.shift()?.();
        if (running) pump();
        resolve();
      };
      req.on('error', () => {
        counted.requests++;
        counted.errors++;
        done();
      });
      req.end(r.body);
    });

  let running = false;
  // Sends what the schedule owes, as far as connections are free; then waits for the next one due.
  const pump = () => {
    const owed = Math.floor((performance.now() - started) / interval) + 1;
    while (sent < owed && inFlight < connections) {
      sent++;
      void send(next());
    }
    clearTimeout(timer);
    // All connections busy: the next answer pumps again.
    if (sent < owed) return;
    timer = setTimeout(pump, Math.max(0, started + sent * interval - performance.now()));
  };

  return {
    start: () => {
      agent = new Agent({ keepAlive: true, maxSockets: connections });
      running = true;
      started = performance.now();
      sent = 0;
      pump();
      return Promise.resolve();
    },
    stop: async () => {
      running = false;
      clearTimeout(timer);
      while (inFlight > 0) await new Promise<void>((r) => idle.push(r));
      agent.destroy();
    },
    counts: () => ({ ...counted }),
  };
}

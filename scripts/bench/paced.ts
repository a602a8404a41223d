import { Agent } from 'node:http';
import { requestOn } from './http';
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
 * when all are busy, the next answer sends what the schedule owes. `next` gives each request as its
 * turn comes.
 */
export function pacedLoad(
  origin: string,
  token: string,
  rate: number,
  connections: number,
  next: () => PacedRequest,
): SideLoad {
  const url = new URL(origin);
  const interval = 1000 / rate;
  const counted = { requests: 0, errors: 0 };
  let agent: Agent | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let started = 0;
  let sent = 0;
  let inFlight = new Set<Promise<void>>();

  const send = (r: PacedRequest) => {
    const headers = {
      authorization: `Bearer ${token}`,
      accept: 'application/vnd.api+json',
      ...(r.body === undefined ? {} : { 'content-type': 'application/vnd.api+json' }),
    };
    const answered = requestOn(agent!, url, r.method, r.path, headers, r.body).then(
      (res) => {
        counted.requests++;
        if (res.status === r.ok) r.answered?.(res.text);
        else counted.errors++;
      },
      () => {
        counted.requests++;
        counted.errors++;
      },
    );
    const done = answered.then(() => {
      inFlight.delete(done);
      if (running) pump();
    });
    inFlight.add(done);
  };

  // Sends what the schedule owes, as far as connections are free; then waits for the next one due.
  const pump = () => {
    const owed = Math.floor((performance.now() - started) / interval) + 1;
    while (sent < owed && inFlight.size < connections) {
      sent++;
      send(next());
    }
    clearTimeout(timer);
    if (sent < owed) return; // every connection busy: the next answer pumps again
    timer = setTimeout(pump, Math.max(0, started + sent * interval - performance.now()));
  };

  return {
    start: () => {
      agent = new Agent({ keepAlive: true, maxSockets: connections });
      inFlight = new Set();
      running = true;
      started = performance.now();
      sent = 0;
      pump();
      return Promise.resolve();
    },
    stop: async () => {
      running = false;
      clearTimeout(timer);
      await Promise.all(inFlight);
      agent?.destroy();
    },
    counts: () => ({ ...counted }),
  };
}

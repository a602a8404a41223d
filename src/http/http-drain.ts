import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Server } from 'node:http';
import { AppConfig } from '../config/app-config';

/**
 * Graceful stop of the HTTP side. On shutdown (SIGTERM, app.close) the listener stops accepting,
 * idle keep-alive sockets close, requests in flight (uploads included) run to completion and their
 * responses say `Connection: close`; whatever is still running after SHUTDOWN_TIMEOUT_MS is cut.
 * Nest closes the database only after this hook returns.
 */
@Injectable()
export class HttpDrain implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Shutdown');
  private readonly inFlight = new InFlight();
  private draining = false;
  private server?: Server;
  private readonly drainListeners: (() => void)[] = [];

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly config: AppConfig,
  ) {}

  /**
   * Told when the drain starts, before it waits for requests in flight: requests that would wait
   * on their own (a claim waiting for a job) answer now instead of holding the shutdown up.
   */
  onDrain(listener: () => void): void {
    this.drainListeners.push(listener);
  }

  get pending(): number {
    return this.inFlight.size;
  }

  middleware(): RequestHandler {
    return (_req: Request, res: Response, next: NextFunction) => {
      if (this.draining) res.setHeader('Connection', 'close');
      const slot = this.inFlight.add(res);
      res.once('close', () => {
        this.inFlight.delete(slot);
        // The socket of a finished response turns idle; let it go instead of waiting for keep-alive.
        if (this.draining) setImmediate(() => this.server?.closeIdleConnections());
      });
      next();
    };
  }

  async beforeApplicationShutdown(): Promise<void> {
    for (const listener of this.drainListeners) listener();
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server?.listening) return;
    this.server = server;
    this.draining = true;
    this.inFlight.forEach((res) => {
      if (!res.headersSent) res.setHeader('Connection', 'close');
    });
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    if (this.inFlight.size) this.logger.log(`waiting for ${this.inFlight.size} request(s) in flight`);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), this.config.shutdownTimeoutMs);
    });
    const expired = await Promise.race([closed.then(() => false), timedOut]);
    clearTimeout(timer);
    if (expired) {
      this.logger.warn(`cutting ${this.inFlight.size} request(s) still running after the shutdown timeout`);
      server.closeAllConnections();
      await closed;
    }
  }
}

/**
 * The responses in flight, each in a slot of one array that is reused. The `Set` this replaces (an
 * add and a delete per request) made every request's objects outlive young-generation collections
 * on this server, so they moved to the old generation, where only full collections free them:
 * with `--trace-gc`, the cached show's collections promoted ~3.5 MB and took ~9 ms each, against
 * ~0.5 MB and ~1 ms with the slots (docs/benchmarks-history.md, 2026-11-26). Measured, not explained: a
 * bare `node:http` server with the same `Set` shows nothing of it. A slot is emptied when its
 * response closes, so the array never holds a finished response.
 */
class InFlight {
  private readonly slots: (Response | undefined)[] = [];
  private readonly free: number[] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(res: Response): number {
    const slot = this.free.pop() ?? this.slots.length;
    this.slots[slot] = res;
    this.count++;
    return slot;
  }

  delete(slot: number): void {
    this.slots[slot] = undefined;
    this.free.push(slot);
    this.count--;
  }

  forEach(visit: (res: Response) => void): void {
    for (const res of this.slots) if (res) visit(res);
  }
}

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
  private readonly inFlight = new Set<Response>();
  private draining = false;
  private server?: Server;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly config: AppConfig,
  ) {}

  get pending(): number {
    return this.inFlight.size;
  }

  middleware(): RequestHandler {
    return (_req: Request, res: Response, next: NextFunction) => {
      if (this.draining) res.setHeader('Connection', 'close');
      this.inFlight.add(res);
      res.once('close', () => {
        this.inFlight.delete(res);
        // The socket of a finished response turns idle; let it go instead of waiting for keep-alive.
        if (this.draining) setImmediate(() => this.server?.closeIdleConnections());
      });
      next();
    };
  }

  async beforeApplicationShutdown(): Promise<void> {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server?.listening) return;
    this.server = server;
    this.draining = true;
    for (const res of this.inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
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

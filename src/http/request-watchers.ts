import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** Told of a request as it arrives; it may listen to the response, and must not answer or throw. */
export type RequestWatcher = (req: Request, res: Response) => void;

/**
 * Who sees every request from just after the rate limit, before negotiation, body parsing or
 * routing can refuse it. A module above the pipeline registers here at start-up (the audit trail,
 * which nothing may import): Nest's module middleware would run only after routing, and so miss
 * the writes refused before it (a body that is not JSON, too large or not well-formed Unicode).
 */
@Injectable()
export class RequestWatchers {
  private readonly watchers: RequestWatcher[] = [];

  register(watcher: RequestWatcher): void {
    this.watchers.push(watcher);
  }

  readonly middleware: RequestHandler = (req: Request, res: Response, next: NextFunction): void => {
    for (const watcher of this.watchers) watcher(req, res);
    next();
  };
}

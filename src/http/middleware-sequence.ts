import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Several middlewares mounted as one layer of the application router. Express's router pays a
 * walk through its layer machinery for every layer of every request (matching, prefix trimming,
 * its `next`); the middlewares every request passes through in order gain nothing from it. Each
 * step is called as Express would call it: `next()` goes on to the following step, `next('route')`
 * too (as in Express, it means nothing outside a route), `next(err)` and `next('router')` leave
 * the sequence with that argument, a thrown error or a rejected promise is passed on as
 * `next(err)`. After the last step the sequence calls its own
 * `next()`.
 */
export function middlewareSequence(steps: readonly RequestHandler[]): RequestHandler {
  const all = [...steps];
  return (req: Request, res: Response, done: NextFunction): void => {
    let index = 0;
    const next: NextFunction = (err?: unknown) => {
      if (err && err !== 'route') return done(err);
      const step = all[index++];
      if (!step) return done();
      try {
        const result = step(req, res, next);
        if (isThenable(result)) {
          result.then(undefined, (reason: unknown) => done(reason || new Error('Rejected promise')));
        }
      } catch (thrown) {
        done(thrown);
      }
    };
    next();
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null && typeof value === 'object' && typeof (value as PromiseLike<unknown>).then === 'function'
  );
}

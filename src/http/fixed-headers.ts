import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * A header middleware whose headers never depend on the request (helmet without its content
 * security policy: every value is decided when it is configured), run once at start-up against a
 * probe that records what it sets and removes; each request then gets the same headers in one
 * loop instead of a chain of eleven middlewares. Anything else the middleware does to the probe,
 * or not calling `next` at once, fails the start: that middleware is not fixed.
 */
export function fixedHeaders(middleware: RequestHandler): RequestHandler {
  const set: [string, string | number | readonly string[]][] = [];
  const removed: string[] = [];
  const probe = new Proxy(
    {
      setHeader(name: string, value: string | number | readonly string[]) {
        set.push([name, value]);
      },
      removeHeader(name: string) {
        removed.push(name);
      },
    },
    {
      get(target, property) {
        if (property in target) return target[property as keyof typeof target];
        throw new Error(`fixedHeaders: the middleware reads res.${String(property)}`);
      },
    },
  );
  const request = new Proxy(
    {},
    {
      get(_target, property) {
        throw new Error(`fixedHeaders: the middleware reads req.${String(property)}`);
      },
    },
  );
  let finished = false;
  void middleware(request as Request, probe as unknown as Response, (err?: unknown) => {
    if (err) throw err instanceof Error ? err : new Error('fixedHeaders: the middleware passed an error');
    finished = true;
  });
  if (!finished) throw new Error('fixedHeaders: the middleware did not call next at once');
  return (_req: Request, res: Response, next: NextFunction) => {
    for (let i = 0; i < set.length; i++) res.setHeader(set[i][0], set[i][1]);
    for (let i = 0; i < removed.length; i++) res.removeHeader(removed[i]);
    next();
  };
}

import type { Request } from 'express';

interface Remembered {
  url: string;
  query: unknown;
}

const REMEMBERED = Symbol('parsed-query');

/**
 * Express 5's `req.query` is a getter that parses the query string again on every read; a
 * request reads it in the guards, Nest's parameter binding and the renderer. This puts a getter in
 * front of it on the application's request prototype that parses once per request URL and hands
 * out the same object after that (nothing in Plinth changes a parsed query).
 */
export function parseQueryOnce(requestPrototype: Request): void {
  const parse = getterOf(requestPrototype, 'query');
  Object.defineProperty(requestPrototype, 'query', {
    configurable: true,
    enumerable: true,
    get(this: Request & { [REMEMBERED]?: Remembered }): unknown {
      const remembered = this[REMEMBERED];
      if (remembered && remembered.url === this.url) return remembered.query;
      const query = parse.call(this);
      this[REMEMBERED] = { url: this.url, query };
      return query;
    },
  });
}

function getterOf(object: object, name: string): (this: Request) => unknown {
  for (let o: object | null = object; o; o = Object.getPrototypeOf(o) as object | null) {
    const get = Object.getOwnPropertyDescriptor(o, name)?.get;
    if (get) return get as (this: Request) => unknown;
  }
  throw new Error(`no getter ${name} on the request prototype`);
}

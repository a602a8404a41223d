import http from 'node:http';
import type { Express } from 'express';

/** The two classes Node's HTTP server makes requests and responses with (`http.createServer` options). */
export type ServerClasses = Required<Pick<http.ServerOptions, 'IncomingMessage' | 'ServerResponse'>>;

type Constructor = new (...args: never[]) => object;

/**
 * Request and response classes for `app` whose instances are made with the prototypes Express
 * gives every request and response (`app.request`, `app.response`).
 *
 * Express's `app.handle` calls `Object.setPrototypeOf` on each request and response. On V8 that
 * turns a cheap, short-lived object into a costly one: measured with a bare `node:http` server
 * answering a fixed body (docs/benchmarks-history.md, 2026-11-26), the call cut it from 215,000 to 73,000
 * requests in 5 s, and its young-generation collections promoted 2.5 MB each instead of 0.15 MB —
 * per-request objects surviving into the old generation, where only the full collections free
 * them. For an object that already has that prototype the call changes nothing, and the cost goes.
 *
 * Node's own classes are constructor functions, which these call on the new object. Should a
 * Node release make them ES classes (which cannot be called), this answers undefined and the
 * server keeps Node's classes: slower, the same behaviour.
 */
export function classesBornAs(app: Express): ServerClasses | undefined {
  if (isClass(http.IncomingMessage) || isClass(http.ServerResponse)) return undefined;
  return {
    IncomingMessage: bornAs(http.IncomingMessage, app.request),
    ServerResponse: bornAs(http.ServerResponse, app.response),
  };
}

/** A constructor whose instances are `base`'s, made with `prototype` (which must inherit from `base`'s). */
function bornAs<C extends Constructor>(base: C, prototype: object): C {
  if (!Object.prototype.isPrototypeOf.call(base.prototype, prototype)) {
    throw new Error(`the prototype given for ${base.name} does not inherit from it`);
  }
  const init = base as unknown as (this: object, ...args: unknown[]) => void;
  function Born(this: object, ...args: unknown[]): void {
    init.apply(this, args);
  }
  Born.prototype = prototype;
  return Born as unknown as C;
}

function isClass(fn: unknown): boolean {
  return /^class\b/.test(Function.prototype.toString.call(fn));
}

import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { middlewareSequence } from './middleware-sequence';

const req = {} as Request;
const res = {} as Response;

function run(steps: RequestHandler[]): Promise<unknown[]> {
  return new Promise((resolve) => middlewareSequence(steps)(req, res, (...args: unknown[]) => resolve(args)));
}

describe('middlewareSequence', () => {
  it('calls every step in order, then its own next without an argument', async () => {
    const seen: number[] = [];
    const step =
      (n: number): RequestHandler =>
      (_q, _s, next: NextFunction) => {
        seen.push(n);
        next();
      };
    expect(await run([step(1), step(2), step(3)])).toEqual([]);
    expect(seen).toEqual([1, 2, 3]);
  });

  it('goes on after an asynchronous next, and leaves at the first error', async () => {
    const seen: string[] = [];
    const failure = new Error('refused');
    const args = await run([
      (_q, _s, next) => setImmediate(() => next()),
      (_q, _s, next) => {
        seen.push('second');
        next(failure);
      },
      () => seen.push('never'),
    ]);
    expect(args).toEqual([failure]);
    expect(seen).toEqual(['second']);
  });

  it("treats next('route') as going on, and hands next('router') out", async () => {
    const seen: string[] = [];
    expect(
      await run([
        (_q, _s, next) => next('route'),
        (_q, _s, next) => {
          seen.push('after route');
          next('router');
        },
        () => seen.push('never'),
      ]),
    ).toEqual(['router']);
    expect(seen).toEqual(['after route']);
  });

  it('passes on what a step throws and what its promise rejects with', async () => {
    const thrown = new Error('thrown');
    expect(
      await run([
        () => {
          throw thrown;
        },
      ]),
    ).toEqual([thrown]);
    const rejected = new Error('rejected');
    expect(await run([() => Promise.reject(rejected)])).toEqual([rejected]);
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- what a careless middleware does
    const [bare] = await run([() => Promise.reject(undefined)]);
    expect((bare as Error).message).toBe('Rejected promise');
  });

  it('does not end a request whose step answered and called nothing', async () => {
    let ended = false;
    middlewareSequence([() => undefined])(req, res, () => (ended = true));
    await new Promise((r) => setImmediate(r));
    expect(ended).toBe(false);
  });
});

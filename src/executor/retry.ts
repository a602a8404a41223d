import { ProtocolError } from './protocol-client';

/** Waits `ms`, or until `signal` aborts; the abort listener goes with the wait (polls are many). */
export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

/** Exponential backoff between tries: `baseMs`, doubling, at most `maxMs`, each with jitter. */
export interface RetryPolicy {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { baseMs: 1_000, maxMs: 30_000 };

/**
 * Whether trying again may help: no answer at all (refused, reset, timed out), 408, 429 or a 5xx.
 * Any other answer is Plinth's last word on the request.
 */
export function isRetryable(err: unknown): boolean {
  if (!(err instanceof ProtocolError)) return true;
  return err.status === 408 || err.status === 429 || err.status >= 500;
}

/**
 * The wait before try `attempt + 1` (0-based): the answer's Retry-After when it gave one, else the
 * backoff's ceiling for this attempt, jittered into its upper half so that executors cut off
 * together do not come back together.
 */
export function retryDelayMs(
  err: unknown,
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  if (err instanceof ProtocolError && err.retryAfterMs !== undefined) return err.retryAfterMs;
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** attempt);
  return ceiling / 2 + (random() * ceiling) / 2;
}

export interface RetryOptions {
  /** Epoch ms; the last try starts no later than this. */
  deadline: number;
  policy: RetryPolicy;
  signal?: AbortSignal;
  onRetry?: (err: unknown, waitMs: number) => void;
}

/**
 * Calls `fn` until it succeeds, fails in a way another try cannot mend, the deadline passes or
 * `signal` aborts; then throws the last error. It is always tried at least once.
 */
export async function withRetry<T>(fn: () => Promise<T>, options: RetryOptions): Promise<T> {
  // Set once a wait was cut short at the deadline: the try after it is the last, even when the
  // timer fired a millisecond before the deadline by the clock.
  let reachedDeadline = false;
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      const left = options.deadline - Date.now();
      if (!isRetryable(err) || left <= 0 || reachedDeadline || options.signal?.aborted) throw err;
      const delay = retryDelayMs(err, attempt, options.policy);
      reachedDeadline = delay >= left;
      const wait = Math.min(left, delay);
      options.onRetry?.(err, wait);
      await sleep(wait, options.signal);
      if (options.signal?.aborted) throw err;
    }
  }
}

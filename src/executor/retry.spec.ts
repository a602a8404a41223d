import { parseRetryAfter, ProtocolError } from './protocol-client';
import { isRetryable, retryDelayMs, withRetry } from './retry';

const policy = { baseMs: 1_000, maxMs: 30_000 };
const answered = (status: number, retryAfterMs?: number) =>
  new ProtocolError(`answered ${status}`, status, retryAfterMs);

describe('retries of the executor', () => {
  it('tries again after no answer, 408, 429 and 5xx, and never after another answer', () => {
    expect(isRetryable(new TypeError('fetch failed'))).toBe(true);
    expect([408, 429, 500, 502, 503, 504].map((s) => isRetryable(answered(s)))).toEqual(Array(6).fill(true));
    expect([400, 401, 404, 409, 410, 413, 422].map((s) => isRetryable(answered(s)))).toEqual(
      Array(7).fill(false),
    );
  });

  it('doubles the wait up to its ceiling, jittered within the upper half', () => {
    const network = new TypeError('fetch failed');
    const lowest = [0, 1, 2, 5, 10].map((attempt) => retryDelayMs(network, attempt, policy, () => 0));
    const highest = [0, 1, 2, 5, 10].map((attempt) => retryDelayMs(network, attempt, policy, () => 1));
    expect(lowest).toEqual([500, 1_000, 2_000, 15_000, 15_000]);
    expect(highest).toEqual([1_000, 2_000, 4_000, 30_000, 30_000]);
  });

  it("waits what the answer's Retry-After asks, in seconds or as a date", () => {
    expect(retryDelayMs(answered(429, 7_000), 3, policy)).toBe(7_000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:12 GMT', now)).toBe(12_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  describe('withRetry', () => {
    const fast = { baseMs: 1, maxMs: 2 };

    it('tries until it succeeds', async () => {
      const fn = jest
        .fn<Promise<string>, []>()
        .mockRejectedValueOnce(answered(503))
        .mockRejectedValueOnce(new TypeError('fetch failed'))
        .mockResolvedValue('taken');
      await expect(withRetry(fn, { deadline: Date.now() + 60_000, policy: fast })).resolves.toBe('taken');
      expect(fn).toHaveBeenCalledTimes(3);
    });

    it('stops at the first answer another try cannot mend', async () => {
      const fn = jest.fn<Promise<void>, []>().mockRejectedValue(answered(409));
      await expect(withRetry(fn, { deadline: Date.now() + 60_000, policy: fast })).rejects.toThrow(
        'answered 409',
      );
      expect(fn).toHaveBeenCalledTimes(1);
    });

    it('tries once past the deadline, and not again once aborted', async () => {
      const late = jest.fn<Promise<void>, []>().mockRejectedValue(answered(503));
      await expect(withRetry(late, { deadline: Date.now() - 1, policy: fast })).rejects.toThrow(
        'answered 503',
      );
      expect(late).toHaveBeenCalledTimes(1);
      const stop = new AbortController();
      const aborted = jest.fn<Promise<void>, []>().mockImplementation(() => {
        stop.abort();
        return Promise.reject(answered(503));
      });
      await expect(
        withRetry(aborted, { deadline: Date.now() + 60_000, policy, signal: stop.signal }),
      ).rejects.toThrow('answered 503');
      expect(aborted).toHaveBeenCalledTimes(1);
    });

    it('does not wait past the deadline for a long Retry-After', async () => {
      const fn = jest.fn<Promise<void>, []>().mockRejectedValue(answered(429, 3_600_000));
      await expect(withRetry(fn, { deadline: Date.now() + 50, policy })).rejects.toThrow('answered 429');
      expect(fn).toHaveBeenCalledTimes(2);
    });

    it('tries only once more after a wait cut at the deadline, even if its timer fired a little early', async () => {
      const deadline = Date.now() + 20;
      const realNow = Date.now.bind(Date);
      let calls = 0;
      // The first failure sees the real clock; the second, a clock a millisecond short of the deadline.
      const now = jest.spyOn(Date, 'now').mockImplementation(() => (++calls === 2 ? deadline - 1 : realNow()));
      try {
        const fn = jest.fn<Promise<void>, []>().mockRejectedValue(answered(429, 3_600_000));
        await expect(withRetry(fn, { deadline, policy })).rejects.toThrow('answered 429');
        expect(fn).toHaveBeenCalledTimes(2);
      } finally {
        now.mockRestore();
      }
    });
  });
});

/**
 * Login attempts per client address in fixed one-minute windows, in this process. The lockout that
 * the users service keeps in the database is what holds across processes and nodes; this only
 * slows one address guessing across many usernames.
 */
export class LoginThrottle {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly perMinute: number) {}

  /** Counts one attempt; the seconds to wait when the address is over its budget, else 0. */
  attempt(address: string, now = Date.now()): number {
    if (this.perMinute <= 0) return 0;
    let window = this.windows.get(address);
    if (!window || now - window.start >= 60_000) {
      if (this.windows.size >= 10_000) this.dropEnded(now);
      window = { start: now, count: 0 };
      this.windows.set(address, window);
    }
    window.count += 1;
    if (window.count <= this.perMinute) return 0;
    return Math.max(1, Math.ceil((window.start + 60_000 - now) / 1000));
  }

  private dropEnded(now: number): void {
    for (const [key, w] of this.windows) if (now - w.start >= 60_000) this.windows.delete(key);
  }
}

import { Global, Injectable, Module } from '@nestjs/common';

/** The time source for rules that depend on "now" (link expiry), so tests can move it. */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}

@Global()
@Module({ providers: [Clock], exports: [Clock] })
export class ClockModule {}

/**
 * `now`, or one millisecond after `latest` when the clock has not moved past it: creation times
 * that must strictly increase within a parent (so "newest" and queue order never tie).
 */
export function strictlyAfter(latest: Date | null, now: Date): Date {
  return latest && latest.getTime() >= now.getTime() ? new Date(latest.getTime() + 1) : now;
}

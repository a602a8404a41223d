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

import { Injectable } from '@nestjs/common';
import passport from 'passport';

/**
 * This app's own passport (an `Authenticator` of its own, not the process-wide `passport`): its
 * strategies register here and AuthenticationGuard authenticates through it. Two apps in one
 * process (the two-node e2e suites) would otherwise share one registry of strategy names, the
 * last app's strategy answering for both, against the other app's database.
 */
@Injectable()
export class AuthStrategies {
  readonly passport = new passport.Authenticator();

  use(name: string, strategy: passport.Strategy): void {
    this.passport.use(name, strategy);
  }
}

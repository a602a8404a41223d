import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { tooManyRequests } from '../common/errors/domain-error';
import { RateLimitService } from '../common/rate-limit/rate-limit.service';
import { inTransaction } from '../common/sql/transaction';
import { AppConfig } from '../config/app-config';
import { UsersService } from '../users/users.service';
import { LoginAttributes } from './dto/login-attributes.dto';
import { LoginThrottle } from './login-throttle';
import { IssuedToken, TokensService } from './tokens.service';

/**
 * Passwords mean something: a user exchanges username and password for a user token that expires
 * (`LOGIN_TOKEN_TTL_HOURS` unless the request names an earlier or later `expired-at`). Guessing is
 * slowed per address, per address and username, and per username (LoginThrottle), in counters every
 * process and node shares, and never by whether the username exists.
 */
@Injectable()
export class LoginService {
  private readonly throttle: LoginThrottle;

  constructor(
    private readonly users: UsersService,
    private readonly tokens: TokensService,
    private readonly config: AppConfig,
    limits: RateLimitService,
    @InjectDataSource() private readonly ds: DataSource,
  ) {
    this.throttle = new LoginThrottle((name, seconds) => limits.counter(name, seconds), {
      attemptsPerMinute: config.loginAttemptsPerMinute,
      maxFailures: config.loginMaxFailures,
      windowSeconds: config.loginLockoutSeconds,
    });
  }

  async login(address: string, attrs: LoginAttributes): Promise<IssuedToken> {
    const user = await this.authenticate(address, attrs.username, attrs.password);
    const expiredAt =
      attrs['expired-at'] ?? new Date(Date.now() + this.config.loginTokenTtlHours * 3_600_000).toISOString();
    return inTransaction(this.ds, (m) =>
      this.tokens.issue(
        m,
        'user',
        { userId: user.id },
        { description: attrs.description ?? 'login', 'expired-at': expiredAt },
      ),
    );
  }

  /**
   * The user whose username and password these are, under the throttle's rules (a 429 when the
   * attempt may not be checked, a 401 when the password is wrong or the user suspended). Every
   * password sign-in goes through here: the API's login and the CLI's sign-in page alike.
   */
  async authenticate(address: string, username: string, password: string): Promise<{ id: string }> {
    const admission = await this.throttle.admit(address, username);
    if (!admission.admitted) {
      const wait = admission.retryAfterSeconds;
      throw tooManyRequests(`Too many login attempts; try again in ${wait} seconds`, wait);
    }
    const user = await this.users.verifyLogin(username, password);
    await this.throttle.succeeded(admission.ticket);
    return user;
  }
}

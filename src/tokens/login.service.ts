import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DomainError } from '../common/errors/domain-error';
import { inTransaction } from '../common/sql/transaction';
import { AppConfig } from '../config/app-config';
import { UsersService } from '../users/users.service';
import { LoginAttributes } from './dto/login-attributes.dto';
import { LoginThrottle } from './login-throttle';
import { IssuedToken, TokensService } from './tokens.service';

/**
 * Passwords mean something: a user exchanges username and password for a user token that expires
 * (`LOGIN_TOKEN_TTL_HOURS` unless the request names an earlier or later `expired-at`). Attempts are
 * limited per client address, and repeated wrong passwords lock the user out for a while.
 */
@Injectable()
export class LoginService {
  private readonly throttle: LoginThrottle;

  constructor(
    private readonly users: UsersService,
    private readonly tokens: TokensService,
    private readonly config: AppConfig,
    @InjectDataSource() private readonly ds: DataSource,
  ) {
    this.throttle = new LoginThrottle(config.loginAttemptsPerMinute);
  }

  async login(address: string, attrs: LoginAttributes): Promise<IssuedToken> {
    const wait = this.throttle.attempt(address);
    if (wait > 0) {
      throw new DomainError('rate-limited', [
        { detail: `Too many login attempts from this address; try again in ${wait} seconds` },
      ]);
    }
    const user = await this.users.verifyLogin(attrs.username, attrs.password, {
      maxFailures: this.config.loginMaxFailures,
      lockoutMs: this.config.loginLockoutSeconds * 1000,
    });
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
}

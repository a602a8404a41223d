import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy, VerifyFunction } from 'passport-http-bearer';
import { AuthStrategies } from './auth-strategies';
import { BearerTokens, TokenHolder } from './bearer-tokens';

/**
 * passport-http-bearer reading the header alone. RFC 6750 §2.2–2.3 also allow the token in a form
 * body or in the query string (`?access_token=`), which the strategy accepts by default; neither
 * is accepted here, since URLs end up in logs and histories. The strategy sees only the headers.
 */
class HeaderBearerStrategy extends Strategy<VerifyFunction> {
  override authenticate(req: Request, options?: object): void {
    super.authenticate({ headers: req.headers } as Request, options);
  }
}

/**
 * API tokens (user, team, organization): `Authorization: Bearer <token>`. What a token stands for
 * is remembered per token digest in the AuthCache (BearerTokens); an error from the lookup (the
 * database is away) propagates as it is, so an outage is a 503, not a 401. What it authenticates
 * is the token's holder, shared with every request of the token: AuthenticationGuard makes the
 * request's own principal of it (RequestContext.actAs).
 */
@Injectable()
export class BearerStrategy extends PassportStrategy(HeaderBearerStrategy, 'bearer') {
  constructor(
    private readonly tokens: BearerTokens,
    strategies: AuthStrategies,
  ) {
    super();
    strategies.use('bearer', this);
  }

  validate(token: string): Promise<TokenHolder> {
    return this.tokens.holderOf(token);
  }
}

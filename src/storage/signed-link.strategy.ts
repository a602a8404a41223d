import { createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { AuthStrategies } from '../common/auth/auth-strategies';
import { RequestStrategy } from '../common/auth/request-strategy';
import { notFound } from '../common/errors/domain-error';
import { LinkClaims, SignedLinks } from './signed-links';

type LinkRequest = Request & { signedLink?: LinkClaims };

/**
 * The signed links' passport strategy (`signed-link`, an Endpoint's `signed-link` kind): the token
 * in the path (`:token`) is the credential, any Authorization header is ignored. A forged or
 * malformed token is a 404, an expired one a 410 (SignedLinks.verify).
 */
@Injectable()
export class SignedLinkStrategy extends PassportStrategy(RequestStrategy, 'signed-link') {
  constructor(
    private readonly links: SignedLinks,
    strategies: AuthStrategies,
  ) {
    super();
    strategies.use('signed-link', this);
  }

  validate(req: Request): LinkClaims {
    const token = req.params.token;
    if (typeof token !== 'string') throw notFound();
    return this.links.verify(token);
  }
}

/** The claims of the signed link this request came with (`signed-link` routes). */
export const SignedLinkClaims = createParamDecorator((_: unknown, ctx: ExecutionContext): LinkClaims => {
  const claims = ctx.switchToHttp().getRequest<LinkRequest>().signedLink;
  if (!claims)
    throw new Error("@SignedLinkClaims() used on a route without Endpoint({ auth: 'signed-link' })");
  return claims;
});

import { Injectable } from '@nestjs/common';
import { DomainError } from '../errors/domain-error';
import { AccessRepository } from './access.repository';
import { AuthCache } from './auth-cache';
import { Principal } from './principal';
import { tokenDigest } from './token-secret';
import { TokenUsage } from './token-usage';

/** What a token stands for, as remembered between requests. */
export interface TokenHolder {
  /** The AuthCache's: shared by every request of the token (a request acts as its own copy). */
  principal: Principal;
  /** Epoch milliseconds after which the token no longer authenticates; null: never. */
  expiresAt: number | null;
}

/**
 * What a bearer token stands for: the principal of a user, team or organization token, remembered
 * per token digest in the AuthCache (the bearer strategy asks on every request it authenticates;
 * AuthenticationGuard makes the request's own principal of it).
 */
@Injectable()
export class BearerTokens {
  constructor(
    private readonly access: AccessRepository,
    private readonly cache: AuthCache,
    private readonly usage: TokenUsage,
  ) {}

  /** Who a token secret stands for, and until when; 401 for an unknown, expired or suspended one. */
  async holderOf(secret: string): Promise<TokenHolder> {
    const key = `token:${tokenDigest(secret)}`;
    // Unknown tokens are not remembered: guessing must not push real tokens out of the cache.
    const resolved = await this.cache.getPresent(key, () => this.resolve(key.slice(6)));
    if (!resolved) throw new DomainError('unauthorized');
    if (resolved.expiresAt !== null && resolved.expiresAt <= Date.now())
      throw new DomainError('unauthorized');
    this.usage.touch(resolved.principal.tokenId);
    return resolved;
  }

  private async resolve(digest: string): Promise<TokenHolder | null> {
    const row = await this.access.findToken(digest);
    if (!row) return null;
    const { token, user, team } = row;
    const expiresAt = token.expiresAt ? token.expiresAt.getTime() : null;
    switch (token.kind) {
      case 'user':
        // A suspended user's tokens stop at once: suspending advances the access epoch.
        if (!user || user.isSuspended) return null;
        return {
          expiresAt,
          principal: {
            kind: 'user',
            tokenId: token.id,
            userId: user.id,
            username: user.username,
            isSiteAdmin: user.isSiteAdmin,
          },
        };
      case 'team':
        if (!team) return null;
        return {
          expiresAt,
          principal: {
            kind: 'team',
            tokenId: token.id,
            teamId: team.id,
            organizationId: team.organizationId,
          },
        };
      case 'organization':
        if (!token.organizationId) return null;
        return {
          expiresAt,
          principal: { kind: 'organization', tokenId: token.id, organizationId: token.organizationId },
        };
    }
  }
}

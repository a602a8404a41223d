import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import { DomainError } from '../errors/domain-error';
import { AccessRepository } from './access.repository';
import { Principal } from './principal';
import { tokenDigest } from './token-secret';

@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(private readonly access: AccessRepository) {
    super();
  }

  async validate(secret: string): Promise<Principal> {
    const row = await this.access.findToken(tokenDigest(secret));
    const unauthorized = new DomainError('unauthorized');
    if (!row) throw unauthorized;
    const { token, user, team } = row;
    if (token.expiresAt && token.expiresAt.getTime() <= Date.now()) throw unauthorized;
    switch (token.kind) {
      case 'user':
        if (!user) throw unauthorized;
        return {
          kind: 'user',
          tokenId: token.id,
          userId: user.id,
          username: user.username,
          isSiteAdmin: user.isSiteAdmin,
        };
      case 'team':
        if (!team) throw unauthorized;
        return { kind: 'team', tokenId: token.id, teamId: team.id, organizationId: team.organizationId };
      case 'organization':
        if (!token.organizationId) throw unauthorized;
        return { kind: 'organization', tokenId: token.id, organizationId: token.organizationId };
    }
  }
}

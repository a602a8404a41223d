import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PermissionService } from '../common/auth/permission.service';
import { Principal } from '../common/auth/principal';
import { newTokenSecret, tokenDigest } from '../common/auth/token-secret';
import { TokenUsage } from '../common/auth/token-usage';
import { Page } from '../common/sql/paginate';
import { inTransaction } from '../common/sql/transaction';
import { invalidAttribute, notFound, taken } from '../common/errors/domain-error';
import { whenDuplicate } from '../common/errors/db-errors';
import { PageParams } from '../common/jsonapi/pagination';
import { newId } from '../common/ids';
import { OrganizationsService } from '../organizations/organizations.service';
import { TeamsService } from '../teams/teams.service';
import { UsersService } from '../users/users.service';
import { CreateTokenAttributes } from './dto/token-attributes.dto';
import { TokenEntity, TokenKind } from './entities/token.entity';
import { TokensRepository } from './tokens.repository';

export interface IssuedToken {
  token: TokenEntity;
  secret: string;
}

interface Owner {
  userId?: string;
  teamId?: string;
  organizationId?: string;
}

@Injectable()
export class TokensService implements OnModuleInit {
  constructor(
    private readonly repo: TokensRepository,
    private readonly permissions: PermissionService,
    private readonly organizations: OrganizationsService,
    private readonly teams: TeamsService,
    private readonly users: UsersService,
    private readonly usage: TokenUsage,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  onModuleInit(): void {
    // In a transaction of its own: on SQLite a bare statement would join whichever one is open.
    this.usage.register((ids, at, notAfter) =>
      inTransaction(this.ds, (m) => this.repo.markUsed(m, ids, at, notAfter)),
    );
  }

  /** Issues a token inside the caller's transaction; the secret is returned once and only its digest kept. */
  async issue(
    manager: EntityManager,
    kind: TokenKind,
    owner: Owner,
    attrs: CreateTokenAttributes = {},
    createdBy?: string,
    legacy = false,
  ): Promise<IssuedToken> {
    const secret = newTokenSecret();
    let expiresAt: Date | null = null;
    if (attrs['expired-at']) {
      expiresAt = new Date(attrs['expired-at']);
      if (expiresAt.getTime() <= Date.now()) throw invalidAttribute('expired-at', 'must be in the future');
      // Both databases' DATETIME ends with year 9999; the zone offset may carry a valid local time past it.
      if (expiresAt.getUTCFullYear() > 9999) {
        throw invalidAttribute('expired-at', 'must be no later than 9999-12-31T23:59:59Z');
      }
    }
    const token = Object.assign(new TokenEntity(), {
      id: newId('at'),
      kind,
      digest: tokenDigest(secret),
      userId: owner.userId ?? createdBy ?? null,
      teamId: owner.teamId ?? null,
      organizationId: owner.organizationId ?? null,
      description: attrs.description ?? null,
      legacy,
      expiresAt,
      createdAt: new Date(),
    });
    await this.repo.insert(manager, token);
    return { token, secret };
  }

  /** Users create tokens for themselves only. */
  async createUserToken(p: Principal, userId: string, attrs: CreateTokenAttributes): Promise<IssuedToken> {
    if (p.kind !== 'user' || p.userId !== userId) throw notFound();
    return inTransaction(this.ds, (m) => this.issue(m, 'user', { userId }, attrs));
  }

  /** Site administrators issue tokens for any user (how a new user gets a first token). */
  async createTokenForUser(p: Principal, userId: string, attrs: CreateTokenAttributes): Promise<IssuedToken> {
    if (!this.permissions.isSiteAdmin(p)) throw notFound();
    await this.users.requireById(userId);
    return inTransaction(this.ds, (m) => this.issue(m, 'user', { userId }, attrs));
  }

  /** A user's tokens, for that user and for site administrators. */
  async listUserTokens(p: Principal, userId: string, page: PageParams): Promise<Page<TokenEntity>> {
    const self = p.kind === 'user' && p.userId === userId;
    if (!self) {
      if (!this.permissions.isSiteAdmin(p)) throw notFound();
      await this.users.requireById(userId);
    }
    return this.repo.listUserTokens(userId, page);
  }

  /** The organization token and team tokens of an organization, for its owners (metadata only). */
  async listOrganizationTokens(
    p: Principal,
    orgName: string,
    kind: 'team' | 'organization' | undefined,
    page: PageParams,
  ): Promise<Page<TokenEntity>> {
    const org = await this.organizations.requireVisible(p, orgName);
    await this.permissions.requireOwner(p, org.id);
    return this.repo.listOrganizationTokens(org.id, this.teams.teamIdsOf(org.id), kind, page);
  }

  /** Inside the deleting transaction of a user: their team and organization tokens stay, unattributed. */
  forgetCreator(manager: EntityManager, userId: string): Promise<void> {
    return this.repo.forgetCreator(manager, userId);
  }

  /**
   * A user's own token (any user's, for site administrators), or a team/organization token of an
   * organization the caller owns; null when there is no such token (the id may be an agent
   * token's), 404 when it is not the caller's.
   */
  async findManageable(p: Principal, id: string): Promise<TokenEntity | null> {
    const token = await this.repo.findById(id);
    if (!token) return null;
    if (token.kind === 'user') {
      const own = p.kind === 'user' && p.userId === token.userId;
      if (!own && !this.permissions.isSiteAdmin(p)) throw notFound();
      return token;
    }
    const organizationId =
      token.organizationId ??
      (token.teamId ? (await this.teams.requireById(token.teamId)).organizationId : null);
    if (!organizationId) throw notFound();
    await this.permissions.requireOwner(p, organizationId);
    return token;
  }

  /** False when there is no such token (see findManageable). */
  async delete(p: Principal, id: string): Promise<boolean> {
    const token = await this.findManageable(p, id);
    if (!token) return false;
    await inTransaction(this.ds, (m) => this.repo.deleteById(m, token.id));
    return true;
  }

  /**
   * The one-token route: a team has one such token, and creating a new one replaces it (its
   * tokens with descriptions stay). Owners only.
   */
  async createTeamToken(p: Principal, teamId: string, attrs: CreateTokenAttributes): Promise<IssuedToken> {
    const team = await this.teams.requireVisible(p, teamId);
    await this.permissions.requireOwner(p, team.organizationId);
    const issued = await this.uniqueDescription(() =>
      inTransaction(this.ds, async (m) => {
        // Two concurrent requests must not leave the team with two tokens.
        await this.teams.lockForTokenChange(m, team.id);
        await this.repo.deleteTeamToken(m, team.id);
        return this.issue(
          m,
          'team',
          { teamId: team.id },
          attrs,
          p.kind === 'user' ? p.userId : undefined,
          true,
        );
      }),
    );
    return issued;
  }

  /** One more team token, with a description no other token of the team has. Owners only. */
  async createDescribedTeamToken(
    p: Principal,
    teamId: string,
    attrs: CreateTokenAttributes,
  ): Promise<IssuedToken> {
    const team = await this.teams.requireVisible(p, teamId);
    await this.permissions.requireOwner(p, team.organizationId);
    if (!attrs.description) throw invalidAttribute('description', "can't be blank");
    return this.uniqueDescription(() =>
      inTransaction(this.ds, (m) =>
        this.issue(m, 'team', { teamId: team.id }, attrs, p.kind === 'user' ? p.userId : undefined),
      ),
    );
  }

  /** The team tokens of an organization (metadata only), for its owners; `q`: a team name substring. */
  async listTeamTokens(
    p: Principal,
    orgName: string,
    q: string | undefined,
    page: PageParams,
  ): Promise<Page<TokenEntity>> {
    const org = await this.organizations.requireVisible(p, orgName);
    await this.permissions.requireOwner(p, org.id);
    return this.repo.listTeamTokens(this.teams.teamIdsOf(org.id, q), page);
  }

  /** A team's token descriptions are unique (an index holds it under concurrent creates). */
  private async uniqueDescription(write: () => Promise<IssuedToken>): Promise<IssuedToken> {
    return whenDuplicate(write, () => taken('description'));
  }

  async findTeamToken(p: Principal, teamId: string): Promise<TokenEntity> {
    const team = await this.teams.requireVisible(p, teamId);
    await this.permissions.requireOwner(p, team.organizationId);
    const token = await this.repo.findTeamToken(team.id);
    if (!token) throw notFound();
    return token;
  }

  async deleteTeamToken(p: Principal, teamId: string): Promise<void> {
    const team = await this.teams.requireVisible(p, teamId);
    await this.permissions.requireOwner(p, team.organizationId);
    const removed = await inTransaction(this.ds, (m) => this.repo.deleteTeamToken(m, team.id));
    if (!removed) throw notFound();
  }

  async createOrganizationToken(
    p: Principal,
    orgName: string,
    attrs: CreateTokenAttributes,
  ): Promise<IssuedToken> {
    const org = await this.organizations.requireVisible(p, orgName);
    await this.permissions.requireOwner(p, org.id);
    const issued = await inTransaction(this.ds, async (m) => {
      await this.organizations.lockForChildWrites(m, org.id);
      await this.repo.deleteOrganizationToken(m, org.id);
      return this.issue(
        m,
        'organization',
        { organizationId: org.id },
        attrs,
        p.kind === 'user' ? p.userId : undefined,
      );
    });
    return issued;
  }

  async findOrganizationToken(p: Principal, orgName: string): Promise<TokenEntity> {
    const org = await this.organizations.requireVisible(p, orgName);
    await this.permissions.requireOwner(p, org.id);
    const token = await this.repo.findOrganizationToken(org.id);
    if (!token) throw notFound();
    return token;
  }

  async deleteOrganizationToken(p: Principal, orgName: string): Promise<void> {
    const org = await this.organizations.requireVisible(p, orgName);
    await this.permissions.requireOwner(p, org.id);
    const removed = await inTransaction(this.ds, (m) => this.repo.deleteOrganizationToken(m, org.id));
    if (!removed) throw notFound();
  }
}

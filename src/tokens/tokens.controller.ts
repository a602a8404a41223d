import { Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AgentTokensService } from '../runs/pools/agent-tokens.service';
import { API_V2 } from '../common/api-prefix';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import { Principal } from '../common/auth/principal';
import { pageResult } from '../common/sql/paginate';
import { notFound } from '../common/errors/domain-error';
import { JsonApiBody, ParsedBody } from '../common/jsonapi/body';
import { CollectionDocument, ResourceDocument } from '../common/jsonapi/document';
import { enumOf } from '../common/jsonapi/openapi';
import { PageParams } from '../common/jsonapi/pagination';
import { Paging, QueryValue } from '../common/jsonapi/query';
import { badRequest } from '../common/errors/domain-error';
import { CreateTokenAttributes } from './dto/token-attributes.dto';
import { IssuedToken, TokensService } from './tokens.service';
import { serializeToken, TOKEN_DOC } from './tokens.serializer';
import { Sortable } from '../common/jsonapi/sort';
import { Endpoint } from '../http/endpoint';

/**
 * Token bodies are optional: an empty POST issues a token with no description. Newer official
 * clients send `data.type` empty, and the real service's documentation spells it in the singular;
 * any other type is refused.
 */
const TYPE = {
  types: ['authentication-tokens', 'authentication-token'],
  typeRequired: false,
  optional: true,
};
const WRITABLE = { writable: ['description', 'expired-at'] };
const issued = (t: IssuedToken) => new ResourceDocument(serializeToken(t.token, t.secret));

@ApiTags('tokens')
@ApiBearerAuth()
@Controller(API_V2)
export class TokensController {
  constructor(
    private readonly tokens: TokensService,
    private readonly agentTokens: AgentTokensService,
  ) {}

  @Post('users/:id/authentication-tokens')
  @Endpoint({ effect: 'changes-access', create: [TOKEN_DOC, WRITABLE] })
  async createUserToken(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @JsonApiBody(CreateTokenAttributes, TYPE) body: ParsedBody<CreateTokenAttributes>,
  ): Promise<ResourceDocument> {
    return issued(await this.tokens.createUserToken(p, id, body.attributes));
  }

  @Post('admin/users/:id/authentication-tokens')
  @Endpoint({ effect: 'changes-access', create: [TOKEN_DOC, WRITABLE] })
  async createTokenForUser(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @JsonApiBody(CreateTokenAttributes, TYPE) body: ParsedBody<CreateTokenAttributes>,
  ): Promise<ResourceDocument> {
    return issued(await this.tokens.createTokenForUser(p, id, body.attributes));
  }

  @Get('users/:id/authentication-tokens')
  @Sortable({ 'created-at': 'createdAt' }, 'created-at')
  @Endpoint({ list: [TOKEN_DOC] })
  async listUserTokens(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Paging() paging: PageParams,
  ): Promise<CollectionDocument> {
    const page = await this.tokens.listUserTokens(p, id, paging);
    return new CollectionDocument(
      page.items.map((t) => serializeToken(t)),
      pageResult(page),
    );
  }

  /** Metadata of the organization's token and its teams' tokens (never a secret), for its owners. */
  @Get('organizations/:org/authentication-tokens')
  @Sortable({ 'created-at': 'createdAt' }, 'created-at')
  @Endpoint({
    list: [
      TOKEN_DOC,
      {
        query: {
          'filter[kind]': { description: 'team or organization', schema: enumOf(['team', 'organization']) },
        },
      },
    ],
  })
  async listOrganizationTokens(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
    @Paging() paging: PageParams,
    @QueryValue('filter[kind]') kind?: string,
  ): Promise<CollectionDocument> {
    const only = (['team', 'organization'] as const).find((k) => k === kind);
    if (kind && !only) throw badRequest('filter[kind] must be team or organization', 'filter[kind]');
    const page = await this.tokens.listOrganizationTokens(p, org, only, paging);
    return new CollectionDocument(
      page.items.map((t) => serializeToken(t)),
      pageResult(page),
    );
  }

  /** User, team and organization tokens and agent tokens share the `at-` ids and these two routes. */
  @Get('authentication-tokens/:id')
  @Endpoint({ show: [TOKEN_DOC] })
  @ApiOperation({ summary: 'A user, team, organization or agent token (agent tokens have no kind)' })
  async show(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<ResourceDocument> {
    const token = await this.tokens.findManageable(p, id);
    if (token) return new ResourceDocument(serializeToken(token));
    const agentToken = await this.agentTokens.findResource(p, id);
    if (!agentToken) throw notFound();
    return new ResourceDocument(agentToken);
  }

  @Delete('authentication-tokens/:id')
  @Endpoint({ effect: 'changes-access', delete: true })
  async remove(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    if (await this.tokens.delete(p, id)) return;
    if (!(await this.agentTokens.delete(p, id))) throw notFound();
  }

  @Post('teams/:id/authentication-token')
  @Endpoint({ effect: 'changes-access', create: [TOKEN_DOC, WRITABLE] })
  async createTeamToken(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @JsonApiBody(CreateTokenAttributes, TYPE) body: ParsedBody<CreateTokenAttributes>,
  ): Promise<ResourceDocument> {
    return issued(await this.tokens.createTeamToken(p, id, body.attributes));
  }

  /** One more team token: a description unique in the team is required; the others stay. */
  @Post('teams/:id/authentication-tokens')
  @Endpoint({ effect: 'changes-access', create: [TOKEN_DOC, WRITABLE] })
  async createDescribedTeamToken(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @JsonApiBody(CreateTokenAttributes, TYPE) body: ParsedBody<CreateTokenAttributes>,
  ): Promise<ResourceDocument> {
    return issued(await this.tokens.createDescribedTeamToken(p, id, body.attributes));
  }

  /** Every team token of the organization (both routes'), without secrets, for its owners. */
  @Get('organizations/:org/team-tokens')
  @Sortable(
    {
      'created-at': 'createdAt',
      'expired-at': 'expiresAt',
      'last-used-at': 'lastUsedAt',
      'created-by': 'userId',
    },
    'created-at',
  )
  @Endpoint({ list: [TOKEN_DOC, { query: { q: 'a substring of the team name' } }] })
  async listTeamTokens(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
    @Paging() paging: PageParams,
    @QueryValue('q') q?: string,
  ): Promise<CollectionDocument> {
    const page = await this.tokens.listTeamTokens(p, org, q, paging);
    return new CollectionDocument(
      page.items.map((t) => serializeToken(t)),
      pageResult(page),
    );
  }

  /** The team's token (the one this route issues), without its secret. */
  @Get('teams/:id/authentication-token')
  @Endpoint({ show: [TOKEN_DOC] })
  async showTeamToken(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<ResourceDocument> {
    return new ResourceDocument(serializeToken(await this.tokens.findTeamToken(p, id)));
  }

  @Delete('teams/:id/authentication-token')
  @Endpoint({ effect: 'changes-access', delete: true })
  async deleteTeamToken(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.tokens.deleteTeamToken(p, id);
  }

  @Post('organizations/:org/authentication-token')
  @Endpoint({ effect: 'changes-access', create: [TOKEN_DOC, WRITABLE] })
  async createOrganizationToken(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
    @JsonApiBody(CreateTokenAttributes, TYPE) body: ParsedBody<CreateTokenAttributes>,
  ): Promise<ResourceDocument> {
    return issued(await this.tokens.createOrganizationToken(p, org, body.attributes));
  }

  /** The organization's token, without its secret. */
  @Get('organizations/:org/authentication-token')
  @Endpoint({ show: [TOKEN_DOC] })
  async showOrganizationToken(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(serializeToken(await this.tokens.findOrganizationToken(p, org)));
  }

  @Delete('organizations/:org/authentication-token')
  @Endpoint({ effect: 'changes-access', delete: true })
  async deleteOrganizationToken(@CurrentPrincipal() p: Principal, @Param('org') org: string): Promise<void> {
    await this.tokens.deleteOrganizationToken(p, org);
  }
}

import { Controller, Get, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../../common/api-prefix';
import { CurrentPrincipal } from '../../common/auth/current-principal.decorator';
import { Principal } from '../../common/auth/principal';
import { pageResult } from '../../common/sql/paginate';
import { JsonApiBody, ParsedBody } from '../../common/jsonapi/body';
import { CollectionDocument, ResourceDocument } from '../../common/jsonapi/document';
import { PageParams } from '../../common/jsonapi/pagination';
import { Paging } from '../../common/jsonapi/query';
import { AgentTokensService } from './agent-tokens.service';
import { AGENT_TOKEN_DOC, serializeAgentToken } from './agent-tokens.serializer';
import { CreateAgentTokenAttributes } from './dto/agent-token-attributes.dto';
import { Sortable } from '../../common/jsonapi/sort';
import { Endpoint } from '../../http/endpoint';

/** The documented type is `authentication-tokens`; go-tfe sends `agent-tokens`. */
const TYPE = { types: ['authentication-tokens', 'agent-tokens'] };

/**
 * Agent tokens of a pool. `GET`/`DELETE /authentication-tokens/:id` are served by the tokens
 * module's controller for every kind of token (see TokensController).
 */
@ApiTags('agent pools')
@ApiBearerAuth()
@Controller(API_V2)
export class AgentTokensController {
  constructor(private readonly tokens: AgentTokensService) {}

  @Get('agent-pools/:id/authentication-tokens')
  @Sortable({ 'created-at': 'createdAt' }, 'created-at')
  @Endpoint({ list: [AGENT_TOKEN_DOC] })
  async list(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Paging() paging: PageParams,
  ): Promise<CollectionDocument> {
    const page = await this.tokens.list(p, id, paging);
    return new CollectionDocument(
      page.items.map((t) => serializeAgentToken(t)),
      pageResult(page),
    );
  }

  /** A new token is a new way in: advances the access epoch like every token change. */
  @Post('agent-pools/:id/authentication-tokens')
  @Endpoint({ effect: 'changes-access', create: [AGENT_TOKEN_DOC, { writable: ['description'] }] })
  async create(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @JsonApiBody(CreateAgentTokenAttributes, TYPE) body: ParsedBody<CreateAgentTokenAttributes>,
  ): Promise<ResourceDocument> {
    const issued = await this.tokens.create(p, id, body.attributes);
    return new ResourceDocument(serializeAgentToken(issued.token, issued.secret));
  }
}

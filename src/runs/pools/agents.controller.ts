import { Controller, Delete, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../../common/api-prefix';
import { CurrentPrincipal } from '../../common/auth/current-principal.decorator';
import { Principal } from '../../common/auth/principal';
import { pageResult } from '../../common/sql/paginate';
import { badRequest } from '../../common/errors/domain-error';
import { CollectionDocument, ResourceDocument } from '../../common/jsonapi/document';
import { PageParams } from '../../common/jsonapi/pagination';
import { Paging, QueryValue } from '../../common/jsonapi/query';
import { Clock } from '../../common/clock';
import { AgentsService } from './agents.service';
import { AGENT_DOC, serializeAgent } from './agents.serializer';
import { Sortable } from '../../common/jsonapi/sort';
import { Endpoint } from '../../http/endpoint';

const LAST_PING_SINCE = 'filter[last-ping-since]';

function since(raw: string | undefined): Date | undefined {
  if (raw === undefined || raw === '') return undefined;
  const at = new Date(raw);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(raw) || Number.isNaN(at.getTime())) {
    throw badRequest(`${LAST_PING_SINCE} must be an ISO 8601 timestamp`, LAST_PING_SINCE);
  }
  return at;
}

@ApiTags('agent pools')
@ApiBearerAuth()
@Controller(API_V2)
export class AgentsController {
  constructor(
    private readonly agents: AgentsService,
    private readonly clock: Clock,
  ) {}

  @Get('agent-pools/:id/agents')
  @Sortable({ name: 'name', 'created-at': 'createdAt' }, 'created-at')
  @Endpoint({
    list: [
      AGENT_DOC,
      {
        query: {
          [LAST_PING_SINCE]: {
            description: 'only agents seen at or after this time (ISO 8601)',
            schema: { type: 'string', format: 'date-time' },
          },
        },
      },
    ],
  })
  async list(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Paging() paging: PageParams,
    @QueryValue(LAST_PING_SINCE) lastPingSince?: string,
  ): Promise<CollectionDocument> {
    const page = await this.agents.list(p, id, since(lastPingSince), paging);
    const now = this.clock.now().getTime();
    return new CollectionDocument(
      page.items.map((a) => serializeAgent(a, now)),
      pageResult(page),
    );
  }

  @Get('agents/:id')
  @Endpoint({ show: [AGENT_DOC] })
  async show(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<ResourceDocument> {
    return new ResourceDocument(serializeAgent(await this.agents.show(p, id), this.clock.now().getTime()));
  }

  /** The agent's id stops opening the agent routes: advances the access epoch. */
  @Delete('agents/:id')
  @Endpoint({ effect: 'changes-access', delete: [412] })
  async remove(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.agents.delete(p, id);
  }
}

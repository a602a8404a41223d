import { Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../common/api-prefix';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import { Principal } from '../common/auth/principal';
import { pageResult } from '../common/sql/paginate';
import { badRequest } from '../common/errors/domain-error';
import { JsonApiBody, ParsedBody } from '../common/jsonapi/body';
import { CollectionDocument, ResourceDocument } from '../common/jsonapi/document';
import { idParam } from '../common/jsonapi/openapi';
import { PageParams } from '../common/jsonapi/pagination';
import { Paging, QueryValue } from '../common/jsonapi/query';
import { TeamWorkspaceAttributes } from './dto/team-workspace-attributes.dto';
import { TeamWorkspacesService } from './team-workspaces.service';
import { serializeTeamWorkspace, TEAM_WORKSPACE_DOC } from './teams.serializer';
import { Sortable } from '../common/jsonapi/sort';
import { Endpoint } from '../http/endpoint';

const TYPE = { types: ['team-workspaces'] };

@ApiTags('team access')
@ApiBearerAuth()
@Controller(`${API_V2}/team-workspaces`)
export class TeamWorkspacesController {
  constructor(private readonly teamWorkspaces: TeamWorkspacesService) {}

  @Get()
  @Sortable({ 'created-at': 'createdAt' }, 'created-at')
  @Endpoint({
    list: [
      TEAM_WORKSPACE_DOC,
      {
        query: {
          'filter[workspace][id]': {
            description: 'required: the workspace whose team access to list',
            schema: idParam('ws'),
          },
        },
      },
    ],
  })
  async list(
    @CurrentPrincipal() p: Principal,
    @Paging() paging: PageParams,
    @QueryValue('filter[workspace][id]') workspaceId?: string,
  ): Promise<CollectionDocument> {
    if (!workspaceId) throw badRequest('filter[workspace][id] is required', 'filter[workspace][id]');
    const page = await this.teamWorkspaces.list(p, workspaceId, paging);
    return new CollectionDocument(page.items.map(serializeTeamWorkspace), pageResult(page));
  }

  @Post()
  @Endpoint({
    effect: 'changes-access',
    create: [
      TEAM_WORKSPACE_DOC,
      {
        writable: ['access'],
        relationships: ['team', 'workspace'],
        requiredRelationships: ['team', 'workspace'],
      },
    ],
  })
  async create(
    @CurrentPrincipal() p: Principal,
    @JsonApiBody(TeamWorkspaceAttributes, TYPE) body: ParsedBody<TeamWorkspaceAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(serializeTeamWorkspace(await this.teamWorkspaces.create(p, body)));
  }

  @Get(':id')
  @Endpoint({ show: [TEAM_WORKSPACE_DOC] })
  async show(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<ResourceDocument> {
    return new ResourceDocument(serializeTeamWorkspace(await this.teamWorkspaces.show(p, id)));
  }

  @Patch(':id')
  @Endpoint({ effect: 'changes-access', update: [TEAM_WORKSPACE_DOC, { writable: ['access'] }] })
  async update(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @JsonApiBody(TeamWorkspaceAttributes, TYPE) body: ParsedBody<TeamWorkspaceAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(serializeTeamWorkspace(await this.teamWorkspaces.update(p, id, body)));
  }

  @Delete(':id')
  @Endpoint({ effect: 'changes-access', delete: true })
  async remove(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.teamWorkspaces.delete(p, id);
  }
}

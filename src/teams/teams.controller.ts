import { Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../common/api-prefix';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import { Principal } from '../common/auth/principal';
import { pageResult } from '../common/sql/paginate';
import { IdentifierArray, JsonApiBody, ParsedBody } from '../common/jsonapi/body';
import { CollectionDocument, ResourceDocument, ResourceIdentifier } from '../common/jsonapi/document';
import { PageParams } from '../common/jsonapi/pagination';
import { Paging } from '../common/jsonapi/query';
import { CreateTeamAttributes, UpdateTeamAttributes } from './dto/team-attributes.dto';
import { TeamsService, TeamView } from './teams.service';
import { serializeTeam, TEAM_DOC } from './teams.serializer';
import { Sortable } from '../common/jsonapi/sort';
import { Endpoint } from '../http/endpoint';

const TYPE = { types: ['teams'] };
const WRITABLE = { writable: ['name', 'visibility', 'organization-access'] };
const toResource = (v: TeamView) => serializeTeam(v.team, v.organization.name, v.userIds);

@ApiTags('teams')
@ApiBearerAuth()
@Controller(API_V2)
export class TeamsController {
  constructor(private readonly teams: TeamsService) {}

  @Get('organizations/:org/teams')
  @Sortable({ name: 'name', 'created-at': 'createdAt' }, 'name')
  @Endpoint({ list: [TEAM_DOC] })
  async list(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
    @Paging() paging: PageParams,
  ): Promise<CollectionDocument> {
    const page = await this.teams.list(p, org, paging);
    return new CollectionDocument(page.items.map(toResource), pageResult(page));
  }

  @Post('organizations/:org/teams')
  @Endpoint({ effect: 'changes-access', create: [TEAM_DOC, WRITABLE] })
  async create(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
    @JsonApiBody(CreateTeamAttributes, TYPE) body: ParsedBody<CreateTeamAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(toResource(await this.teams.create(p, org, body)));
  }

  @Get('teams/:id')
  @Endpoint({ show: [TEAM_DOC] })
  async show(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<ResourceDocument> {
    return new ResourceDocument(toResource(await this.teams.view(await this.teams.requireVisible(p, id))));
  }

  @Patch('teams/:id')
  @Endpoint({ effect: 'changes-access', update: [TEAM_DOC, WRITABLE] })
  async update(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @JsonApiBody(UpdateTeamAttributes, TYPE) body: ParsedBody<UpdateTeamAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(toResource(await this.teams.update(p, id, body)));
  }

  @Delete('teams/:id')
  @Endpoint({ effect: 'changes-access', delete: [422] })
  async remove(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.teams.delete(p, id);
  }

  @Post('teams/:id/relationships/users')
  @HttpCode(204)
  @Endpoint({ effect: 'changes-access', relationship: 'users' })
  async addUsers(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @IdentifierArray('users') users: ResourceIdentifier[],
  ): Promise<void> {
    await this.teams.addMembers(p, id, users);
  }

  @Delete('teams/:id/relationships/users')
  @HttpCode(204)
  @Endpoint({ effect: 'changes-access', relationship: 'users' })
  async removeUsers(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @IdentifierArray('users') users: ResourceIdentifier[],
  ): Promise<void> {
    await this.teams.removeMembers(p, id, users);
  }
}

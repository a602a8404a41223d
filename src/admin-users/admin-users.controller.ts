import { Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../common/api-prefix';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import { Principal } from '../common/auth/principal';
import { pageResult } from '../common/sql/paginate';
import { CollectionDocument, ResourceDocument } from '../common/jsonapi/document';
import { ApiErrors, booleanParam } from '../common/jsonapi/openapi';
import { PageParams } from '../common/jsonapi/pagination';
import { Paging, parseBooleanParam, QueryValue } from '../common/jsonapi/query';
import { badRequest } from '../common/errors/domain-error';
import { serializeUser, USER_DOC } from '../users/users.serializer';
import { UsersService } from '../users/users.service';
import { AdminUsersService } from './admin-users.service';
import { Sortable } from '../common/jsonapi/sort';
import { Endpoint } from '../http/endpoint';

/** The real service's admin users API (site administrators only; 404 to anyone else). Two-factor is not offered, so there is no `disable_two_factor`. */
@ApiTags('admin users')
@ApiBearerAuth()
@Controller(`${API_V2}/admin/users`)
export class AdminUsersController {
  constructor(
    private readonly users: UsersService,
    private readonly admin: AdminUsersService,
  ) {}

  @Get()
  @Sortable({ username: 'username', 'created-at': 'createdAt' }, 'username')
  @Endpoint({
    list: [
      USER_DOC,
      {
        query: {
          q: 'part of the username or email (case-insensitive)',
          search: 'the same as q',
          'filter[username]': 'the exact username (case-insensitive)',
          'filter[admin]': {
            description: 'true: site administrators only; false: everyone else',
            schema: booleanParam(),
          },
          'filter[suspended]': {
            description: 'true: suspended users only; false: everyone else',
            schema: booleanParam(),
          },
        },
      },
    ],
  })
  @ApiOperation({ summary: 'Every user of the installation; meta.status-counts has the totals' })
  async list(
    @CurrentPrincipal() p: Principal,
    @Paging() paging: PageParams,
    @QueryValue('q') q?: string,
    @QueryValue('search') search?: string,
    @QueryValue('filter[username]') username?: string,
    @QueryValue('filter[admin]') admin?: string,
    @QueryValue('filter[suspended]') suspended?: string,
  ): Promise<CollectionDocument> {
    if (q && search && q !== search) throw badRequest('give q or search, not both', 'search');
    const { page, counts } = await this.users.listForAdmin(
      p,
      {
        search: q || search || undefined,
        username: username || undefined,
        admin: parseBooleanParam(admin, 'filter[admin]'),
        suspended: parseBooleanParam(suspended, 'filter[suspended]'),
      },
      paging,
    );
    const data = page.items.map((u) => serializeUser(u, true));
    return new CollectionDocument(data, pageResult(page), undefined, undefined, { 'status-counts': counts });
  }

  @Get(':id')
  @Endpoint({ show: [USER_DOC] })
  async show(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<ResourceDocument> {
    this.users.requireSiteAdmin(p);
    return new ResourceDocument(serializeUser(await this.users.requireById(id), true));
  }

  @Post(':id/actions/suspend')
  @HttpCode(200)
  @Endpoint({ effect: 'changes-access', show: [USER_DOC] })
  @ApiErrors(400, 422)
  @ApiOperation({ summary: 'Suspend a user: their tokens stop working at once (400 if already suspended)' })
  async suspend(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<ResourceDocument> {
    return new ResourceDocument(serializeUser(await this.users.setSuspended(p, id, true), true));
  }

  @Post(':id/actions/unsuspend')
  @HttpCode(200)
  @Endpoint({ effect: 'changes-access', show: [USER_DOC] })
  @ApiErrors(400)
  @ApiOperation({ summary: 'Unsuspend a user (400 if not suspended)' })
  async unsuspend(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<ResourceDocument> {
    return new ResourceDocument(serializeUser(await this.users.setSuspended(p, id, false), true));
  }

  @Post(':id/actions/grant_admin')
  @HttpCode(200)
  @Endpoint({ effect: 'changes-access', show: [USER_DOC] })
  @ApiErrors(400)
  @ApiOperation({ summary: 'Make a user a site administrator (400 if already one)' })
  async grantAdmin(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<ResourceDocument> {
    return new ResourceDocument(serializeUser(await this.users.setSiteAdmin(p, id, true), true));
  }

  @Post(':id/actions/revoke_admin')
  @HttpCode(200)
  @Endpoint({ effect: 'changes-access', show: [USER_DOC] })
  @ApiErrors(400, 422)
  @ApiOperation({ summary: "Revoke a user's site administration (400 if not one; 422 for your own)" })
  async revokeAdmin(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<ResourceDocument> {
    return new ResourceDocument(serializeUser(await this.users.setSiteAdmin(p, id, false), true));
  }

  @Delete(':id')
  @Endpoint({ effect: 'changes-access', delete: [422] })
  @ApiOperation({
    summary:
      'Delete a user: their user tokens and memberships go; tokens they issued for teams and organizations stay',
  })
  async remove(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.admin.delete(p, id);
  }
}

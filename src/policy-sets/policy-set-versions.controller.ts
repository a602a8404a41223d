import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../common/api-prefix';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import { Principal } from '../common/auth/principal';
import { pageResult } from '../common/sql/paginate';
import { CollectionDocument, ResourceDocument } from '../common/jsonapi/document';
import { ApiErrors, resourceSchema } from '../common/jsonapi/openapi';
import { PageParams } from '../common/jsonapi/pagination';
import { Includes, Paging } from '../common/jsonapi/query';
import { LinkOrigin } from '../storage/link-origin.decorator';
import { PolicySetVersionsService } from './policy-set-versions.service';
import { POLICY_SET_VERSION_DOC } from './policy-set-versions.serializer';
import { PolicySetPresenter } from './policy-set.presenter';
import { serializePolicySet } from './policy-sets.serializer';
import { Sortable } from '../common/jsonapi/sort';
import { Endpoint } from '../http/endpoint';

/** The relationship's name; `policy_set` is accepted as well (parseInclude). */
const VERSION_INCLUDES = ['policy-set'];

@ApiTags('policy-set-versions')
@ApiBearerAuth()
@Controller(API_V2)
export class PolicySetVersionsController {
  constructor(
    private readonly versions: PolicySetVersionsService,
    private readonly presenter: PolicySetPresenter,
  ) {}

  @Post('policy-sets/:id/versions')
  @Endpoint({ effect: 'leaves-access-alone' })
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create a version to upload an archive to (no body)',
    description:
      'Answers a pending version whose links.upload is an absolute URL, valid for one hour, that takes ' +
      'one PUT of a tar.gz archive without an Authorization header. 422 when the set has a VCS ' +
      'repository or uses the policies relationship, or in the free edition.',
  })
  @ApiResponse({
    status: 201,
    schema: { type: 'object', properties: { data: resourceSchema(POLICY_SET_VERSION_DOC) } },
  })
  @ApiErrors(401, 404, 422)
  async create(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @LinkOrigin() origin: string,
  ): Promise<ResourceDocument> {
    const version = await this.versions.create(p, id);
    return new ResourceDocument(this.presenter.versionResource(version, origin));
  }

  @Get('policy-sets/:id/versions')
  @ApiOperation({ summary: 'Versions of a policy set, newest first' })
  @Sortable({ 'created-at': 'createdAt' }, '-created-at')
  @Endpoint({ list: [POLICY_SET_VERSION_DOC] })
  async list(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Paging() paging: PageParams,
    @LinkOrigin() origin: string,
  ): Promise<CollectionDocument> {
    const page = await this.versions.list(p, id, paging);
    return new CollectionDocument(
      page.items.map((v) => this.presenter.versionResource(v, origin)),
      pageResult(page),
    );
  }

  @Get('policy-set-versions/:id')
  @Endpoint({ show: [POLICY_SET_VERSION_DOC, VERSION_INCLUDES] })
  async show(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Includes(VERSION_INCLUDES) includes: string[],
    @LinkOrigin() origin: string,
  ): Promise<ResourceDocument> {
    const { version, set } = await this.versions.requireManageable(p, id);
    const included = includes.length ? [serializePolicySet(await this.presenter.view(set))] : undefined;
    return new ResourceDocument(this.presenter.versionResource(version, origin), included);
  }
}

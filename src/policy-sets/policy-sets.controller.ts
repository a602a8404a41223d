import { Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../common/api-prefix';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import { Principal } from '../common/auth/principal';
import { pageResult } from '../common/sql/paginate';
import { JsonApiBody, ParsedBody } from '../common/jsonapi/body';
import { CollectionDocument, ResourceDocument } from '../common/jsonapi/document';
import { enumOf } from '../common/jsonapi/openapi';
import { PageParams } from '../common/jsonapi/pagination';
import { Includes, Paging, parseBooleanParam, QueryValue } from '../common/jsonapi/query';
import { KIND_ALIASES, POLICY_KINDS, parseKindFilter } from '../policies/policy-kinds';
import { LinkOrigin } from '../storage/link-origin.decorator';
import { CreatePolicySetAttributes, UpdatePolicySetAttributes } from './dto/policy-set-attributes.dto';
import { POLICY_SET_INCLUDES, PolicySetPresenter } from './policy-set.presenter';
import { PolicySetsService } from './policy-sets.service';
import { POLICY_SET_DOC, serializePolicySet } from './policy-sets.serializer';
import { Sortable } from '../common/jsonapi/sort';
import { Endpoint } from '../http/endpoint';

const TYPE = { types: ['policy-sets'] };
const CREATE_BODY = {
  writable: [
    'name',
    'description',
    'global',
    'kind',
    'overridable',
    'agent-enabled',
    'policy-tool-version',
    'vcs-repo',
    'policies-path',
  ],
  relationships: ['projects', 'workspaces', 'workspace-exclusions', 'policies'],
};
const UPDATE_BODY = {
  writable: CREATE_BODY.writable.filter((a) => a !== 'kind'),
  relationships: ['projects', 'workspaces', 'workspace-exclusions'],
};

@ApiTags('policy-sets')
@ApiBearerAuth()
@Controller(API_V2)
export class PolicySetsController {
  constructor(
    private readonly sets: PolicySetsService,
    private readonly presenter: PolicySetPresenter,
  ) {}

  @Get('organizations/:org/policy-sets')
  @Sortable({ name: 'name', 'created-at': 'createdAt' }, 'name')
  @Endpoint({
    list: [
      POLICY_SET_DOC,
      {
        includes: POLICY_SET_INCLUDES,
        query: {
          'filter[versioned]': {
            description: 'true: VCS or upload-versioned sets; false: sets using the policies relationship',
            schema: enumOf(['true', 'false']),
          },
          'filter[kind]': {
            description: "framework_a or framework_b (or the real service's sentinel, opa)",
            schema: enumOf([...POLICY_KINDS, ...Object.keys(KIND_ALIASES)]),
          },
          'search[name]': 'substring of the set name',
        },
      },
    ],
  })
  async list(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
    @Paging() paging: PageParams,
    @Includes(POLICY_SET_INCLUDES) includes: string[],
    @LinkOrigin() origin: string,
    @QueryValue('filter[versioned]') versioned?: string,
    @QueryValue('filter[kind]') kind?: string,
    @QueryValue('search[name]') search?: string,
  ): Promise<CollectionDocument> {
    const query = {
      search,
      kind: parseKindFilter(kind),
      versioned: parseBooleanParam(versioned, 'filter[versioned]'),
    };
    const page = await this.sets.list(p, org, query, paging);
    const included = await this.presenter.included(p, page.items, includes, origin);
    return new CollectionDocument(page.items.map(serializePolicySet), pageResult(page), included);
  }

  @Post('organizations/:org/policy-sets')
  @Endpoint({ effect: 'leaves-access-alone', create: [POLICY_SET_DOC, CREATE_BODY] })
  async create(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
    @JsonApiBody(CreatePolicySetAttributes, TYPE) body: ParsedBody<CreatePolicySetAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(serializePolicySet(await this.sets.create(p, org, body)));
  }

  @Get('policy-sets/:id')
  @Endpoint({ show: [POLICY_SET_DOC, POLICY_SET_INCLUDES] })
  async show(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Includes(POLICY_SET_INCLUDES) includes: string[],
    @LinkOrigin() origin: string,
  ): Promise<ResourceDocument> {
    const view = await this.sets.show(p, id);
    const included = await this.presenter.included(p, [view], includes, origin);
    return new ResourceDocument(serializePolicySet(view), included);
  }

  @Patch('policy-sets/:id')
  @Endpoint({ effect: 'leaves-access-alone', update: [POLICY_SET_DOC, UPDATE_BODY] })
  async update(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @JsonApiBody(UpdatePolicySetAttributes, TYPE) body: ParsedBody<UpdatePolicySetAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(serializePolicySet(await this.sets.update(p, id, body)));
  }

  @Delete('policy-sets/:id')
  @Endpoint({ effect: 'leaves-access-alone', delete: true })
  @ApiOperation({ summary: 'Delete a policy set; its policies are kept' })
  async remove(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.sets.delete(p, id);
  }

  @Get('workspaces/:id/effective-policy-sets')
  @ApiOperation({
    summary: 'Policy sets enforced on a workspace',
    description:
      'Global sets and sets attached to the workspace or its project, minus sets that exclude it. ' +
      'Read access to the workspace is enough.',
  })
  @Sortable({ name: 'name', 'created-at': 'createdAt' }, 'name')
  @Endpoint({ list: [POLICY_SET_DOC] })
  async effective(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Paging() paging: PageParams,
  ): Promise<CollectionDocument> {
    const page = await this.sets.effective(p, id, paging);
    return new CollectionDocument(page.items.map(serializePolicySet), pageResult(page));
  }
}

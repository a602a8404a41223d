import { Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../common/api-prefix';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import { Principal } from '../common/auth/principal';
import { JsonApiBody, ParsedBody } from '../common/jsonapi/body';
import { CollectionDocument, ResourceDocument } from '../common/jsonapi/document';
import { PageParams } from '../common/jsonapi/pagination';
import { Paging } from '../common/jsonapi/query';
import { Sortable } from '../common/jsonapi/sort';
import { pageResult } from '../common/sql/paginate';
import { PolicySetParameterAttributes } from './dto/policy-set-parameter-attributes.dto';
import { PolicySetParametersService } from './policy-set-parameters.service';
import { POLICY_SET_PARAMETER_DOC, serializeParameter } from './policy-set-parameters.serializer';
import { Endpoint } from '../http/endpoint';

const TYPE = { types: ['vars'] };
const WRITABLE = ['key', 'value', 'category', 'sensitive'];

@ApiTags('policy-sets')
@ApiBearerAuth()
@Controller(API_V2)
export class PolicySetParametersController {
  constructor(private readonly parameters: PolicySetParametersService) {}

  @Post('policy-sets/:id/parameters')
  @Endpoint({ effect: 'leaves-access-alone', create: [POLICY_SET_PARAMETER_DOC, { writable: WRITABLE }] })
  async create(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @JsonApiBody(PolicySetParameterAttributes, TYPE) body: ParsedBody<PolicySetParameterAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(serializeParameter(await this.parameters.create(p, id, body.attributes)));
  }

  @Get('policy-sets/:id/parameters')
  @Sortable({ key: 'key', 'created-at': 'createdAt' }, 'created-at')
  @Endpoint({ list: [POLICY_SET_PARAMETER_DOC] })
  @ApiOperation({
    summary: 'List the parameters of a policy set',
    description: 'Needs the right to manage policies. Sensitive values are null.',
  })
  async list(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Paging() paging: PageParams,
  ): Promise<CollectionDocument> {
    const page = await this.parameters.list(p, id, paging);
    return new CollectionDocument(page.items.map(serializeParameter), pageResult(page));
  }

  @Get('policy-sets/:id/parameters/:parameter_id')
  @Endpoint({ show: [POLICY_SET_PARAMETER_DOC] })
  async show(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Param('parameter_id') parameterId: string,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(serializeParameter(await this.parameters.show(p, id, parameterId)));
  }

  @Patch('policy-sets/:id/parameters/:parameter_id')
  @Endpoint({ effect: 'leaves-access-alone', update: [POLICY_SET_PARAMETER_DOC, { writable: WRITABLE }] })
  async update(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Param('parameter_id') parameterId: string,
    @JsonApiBody(PolicySetParameterAttributes, TYPE) body: ParsedBody<PolicySetParameterAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(
      serializeParameter(await this.parameters.update(p, id, parameterId, body.attributes)),
    );
  }

  @Delete('policy-sets/:id/parameters/:parameter_id')
  @Endpoint({ effect: 'leaves-access-alone', delete: true })
  async remove(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Param('parameter_id') parameterId: string,
  ): Promise<void> {
    await this.parameters.delete(p, id, parameterId);
  }
}

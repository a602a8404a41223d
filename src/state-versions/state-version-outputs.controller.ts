import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../common/api-prefix';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import { Principal } from '../common/auth/principal';
import { CollectionDocument, ResourceDocument } from '../common/jsonapi/document';
import { PageParams } from '../common/jsonapi/pagination';
import { Paging } from '../common/jsonapi/query';
import { Sortable } from '../common/jsonapi/sort';
import { pageResult } from '../common/sql/paginate';
import { StateVersionsPresenter } from './state-versions.presenter';
import { STATE_VERSION_OUTPUT_DOC } from './state-versions.serializer';
import { StateVersionsService } from './state-versions.service';
import { Endpoint } from '../http/endpoint';

@ApiTags('state versions')
@ApiBearerAuth()
@Controller(API_V2)
export class StateVersionOutputsController {
  constructor(
    private readonly reads: StateVersionsService,
    private readonly presenter: StateVersionsPresenter,
  ) {}

  @Get('state-versions/:id/outputs')
  @ApiOperation({ summary: 'Outputs of a state version, by name, sensitive values included' })
  @Sortable({ name: 'name' }, 'name')
  @Endpoint({ list: [STATE_VERSION_OUTPUT_DOC] })
  async list(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Paging() paging: PageParams,
  ): Promise<CollectionDocument> {
    const page = await this.reads.outputs(p, id, paging);
    return new CollectionDocument(this.presenter.outputResources(page.items, 'nothing'), pageResult(page));
  }

  @Get('workspaces/:id/current-state-version-outputs')
  @ApiOperation({
    summary: 'Outputs of the current state version, sensitive values null',
    description:
      'For callers that need outputs, not secrets (`terraform output` reads a sensitive value through ' +
      'GET /state-version-outputs/:id). 404 while the workspace has no state.',
  })
  @Sortable({ name: 'name' }, 'name')
  @Endpoint({ list: [STATE_VERSION_OUTPUT_DOC] })
  async current(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Paging() paging: PageParams,
  ): Promise<CollectionDocument> {
    const page = await this.reads.currentOutputs(p, id, paging);
    return new CollectionDocument(this.presenter.outputResources(page.items, 'sensitive'), pageResult(page));
  }

  @Get('state-version-outputs/:id')
  @Endpoint({ show: [STATE_VERSION_OUTPUT_DOC] })
  @ApiOperation({ summary: 'One output, its sensitive value included' })
  async show(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<ResourceDocument> {
    const [resource] = this.presenter.outputResources([await this.reads.output(p, id)], 'nothing');
    return new ResourceDocument(resource);
  }
}

import { Controller, Get, HttpCode, Param, Post, Redirect } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../common/api-prefix';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import { Principal } from '../common/auth/principal';
import { pageResult } from '../common/sql/paginate';
import { JsonApiBody, ParsedBody } from '../common/jsonapi/body';
import { CollectionDocument, ResourceDocument } from '../common/jsonapi/document';
import { ApiErrors } from '../common/jsonapi/openapi';
import { PageParams } from '../common/jsonapi/pagination';
import { Paging } from '../common/jsonapi/query';
import { LinkOrigin } from '../storage/link-origin.decorator';
import { ConfigurationVersionsService } from './configuration-versions.service';
import {
  CONFIGURATION_VERSION_DOC,
  serializeConfigurationVersion,
} from './configuration-versions.serializer';
import { CreateConfigurationVersionAttributes } from './dto/run-attributes.dto';
import { READ_LINK_SECONDS, RunLinks } from './run-links';
import { Sortable } from '../common/jsonapi/sort';
import { Endpoint } from '../http/endpoint';

@ApiTags('configuration-versions')
@ApiBearerAuth()
@Controller(API_V2)
export class ConfigurationVersionsController {
  constructor(
    private readonly cvs: ConfigurationVersionsService,
    private readonly links: RunLinks,
  ) {}

  @Post('workspaces/:id/configuration-versions')
  @ApiOperation({
    summary: 'Create a configuration version to upload a tar.gz to',
    description:
      'Needs plan access to the workspace. The answer carries `upload-url` (only here): an absolute URL, ' +
      'valid for one hour, taking one PUT of the raw tar.gz without an Authorization header. The PUT ' +
      'answers 200 once the version is `uploaded`, or 422 saying why it is `errored`; a second PUT 409. ' +
      'With `auto-queue-runs` (default true) the upload queues a run. A `provisional` version (default ' +
      "false) is not the workspace's configuration until a run of it applies: runs that name no version " +
      'take the newest version that is not provisional.',
  })
  @Endpoint({
    effect: 'leaves-access-alone',
    create: [CONFIGURATION_VERSION_DOC, { writable: ['auto-queue-runs', 'speculative', 'provisional'] }],
  })
  async create(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @LinkOrigin() origin: string,
    @JsonApiBody(CreateConfigurationVersionAttributes, {
      types: ['configuration-versions'],
      typeRequired: false,
      optional: true,
    })
    body: ParsedBody<CreateConfigurationVersionAttributes>,
  ): Promise<ResourceDocument> {
    const cv = await this.cvs.create(p, id, {
      autoQueueRuns: body.attributes['auto-queue-runs'] ?? true,
      speculative: body.attributes.speculative ?? false,
      provisional: body.attributes.provisional ?? false,
    });
    return new ResourceDocument(
      serializeConfigurationVersion(cv, this.links.configurationUpload(origin, cv.id, cv.createdAt)),
    );
  }

  @Get('workspaces/:id/configuration-versions')
  @ApiOperation({ summary: 'Configuration versions of a workspace, newest first' })
  @Sortable({ 'created-at': 'createdAt' }, '-created-at')
  @Endpoint({ list: [CONFIGURATION_VERSION_DOC] })
  async list(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Paging() paging: PageParams,
  ): Promise<CollectionDocument> {
    const page = await this.cvs.list(p, id, paging);
    return new CollectionDocument(
      page.items.map((cv) => serializeConfigurationVersion(cv)),
      pageResult(page),
    );
  }

  @Get('configuration-versions/:id')
  @Endpoint({ show: [CONFIGURATION_VERSION_DOC] })
  async show(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<ResourceDocument> {
    return new ResourceDocument(serializeConfigurationVersion(await this.cvs.requireReadable(p, id)));
  }

  @Get('configuration-versions/:id/download')
  @Redirect(undefined, 302)
  @HttpCode(302)
  @ApiOperation({
    summary: 'Redirect (302) to a signed link of the uploaded tar.gz, valid for five minutes',
    description: 'Needs read access to the workspace; 404 while the version is not uploaded.',
  })
  @ApiResponse({ status: 302, description: 'Location: the signed download link' })
  @ApiErrors(401, 404)
  async download(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @LinkOrigin() origin: string,
  ): Promise<{ url: string; statusCode: number }> {
    const cv = await this.cvs.requireDownloadable(p, id);
    return { url: this.links.configurationDownload(origin, cv.id, READ_LINK_SECONDS), statusCode: 302 };
  }
}

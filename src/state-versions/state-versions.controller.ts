import { Controller, Get, HttpCode, Logger, Param, Patch, Post, StreamableFile } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../common/api-prefix';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import { Principal } from '../common/auth/principal';
import { badRequest } from '../common/errors/domain-error';
import { JsonApiBody, ParsedBody } from '../common/jsonapi/body';
import { CollectionDocument, ResourceDocument } from '../common/jsonapi/document';
import { ApiErrors, bool, enumOf, str } from '../common/jsonapi/openapi';
import { PageParams } from '../common/jsonapi/pagination';
import { Includes, Paging, QueryValue } from '../common/jsonapi/query';
import { Sortable } from '../common/jsonapi/sort';
import { pageResult } from '../common/sql/paginate';
import { AppConfig } from '../config/app-config';
import { LargeJsonBody } from '../http/large-json-body';
import { CONFIGURATION_VERSION_DOC } from '../runs/configuration-versions.serializer';
import { RUN_DOC } from '../runs/runs.serializer';
import { LinkOrigin } from '../storage/link-origin.decorator';
import { USER_DOC } from '../users/users.serializer';
import {
  CreateStateVersionAttributes,
  RollbackStateVersionAttributes,
} from './dto/state-version-attributes.dto';
import {
  STATE_VERSION_STATUSES,
  StateVersionEntity,
  StateVersionStatus,
} from './entities/state-version.entity';
import { StateKind } from './state-content';
import { STATE_VERSION_INCLUDES, StateVersionsPresenter } from './state-versions.presenter';
import { STATE_VERSION_DOC, STATE_VERSION_OUTPUT_DOC } from './state-versions.serializer';
import { StateVersionsService } from './state-versions.service';
import { StateWritesService } from './state-writes.service';
import { Endpoint } from '../http/endpoint';

const TYPE = { types: ['state-versions'] };
const INCLUDED_DOCS = [USER_DOC, RUN_DOC, CONFIGURATION_VERSION_DOC, STATE_VERSION_OUTPUT_DOC];
const FILTER_WORKSPACE = 'filter[workspace][name]';
const FILTER_ORGANIZATION = 'filter[organization][name]';
const FILTER_STATUS = 'filter[status]';

/** Room for the state and its JSON form at MAX_STATE_BYTES each, base64 encoded, and the rest of the document. */
const inlineBodyLimit = (config: AppConfig) => 2 * Math.ceil(config.maxStateBytes / 3) * 4 + 1024 * 1024;

function required(value: string | undefined, name: string): string {
  if (!value) throw badRequest(`${name} is required`, name);
  return value;
}

function statusFilter(raw: string | undefined): StateVersionStatus | undefined {
  if (raw === undefined || raw === '') return undefined;
  const status = STATE_VERSION_STATUSES.find((s) => s === raw);
  if (!status)
    throw badRequest(`${FILTER_STATUS} must be one of ${STATE_VERSION_STATUSES.join(', ')}`, FILTER_STATUS);
  return status;
}

const DOWNLOAD_RESPONSE = {
  status: 200,
  description: 'The state file as it was uploaded (decrypted), with Content-Length',
  content: { 'application/json': { schema: { type: 'object' } } },
};

@ApiTags('state versions')
@ApiBearerAuth()
@Controller(API_V2)
export class StateVersionsController {
  private readonly logger = new Logger(StateVersionsController.name);

  constructor(
    private readonly reads: StateVersionsService,
    private readonly writes: StateWritesService,
    private readonly presenter: StateVersionsPresenter,
  ) {}

  @Post('workspaces/:id/state-versions')
  @LargeJsonBody(inlineBodyLimit)
  @ApiOperation({
    summary: 'Create a state version',
    description:
      'Needs write access and the workspace lock, held by the caller (user or team token; organization ' +
      'tokens never write state). With `state` (base64) the version is finalized and becomes current at ' +
      'once; without it the version is `pending` and its state is PUT to `hosted-state-upload-url` ' +
      '(and the JSON state to `hosted-json-state-upload-url`), without an Authorization header. ' +
      '409: not locked by the caller, a different lineage, a lower serial, or the same serial with other ' +
      'content (`force` skips the lineage and serial checks). 422: `md5` is not the decoded state’s, or the ' +
      'state is not a JSON object or names another serial or lineage. 413 past MAX_STATE_BYTES.',
  })
  @Endpoint({
    effect: 'leaves-access-alone',
    create: [
      STATE_VERSION_DOC,
      {
        writable: ['serial', 'md5', 'lineage', 'state', 'json-state', 'json-state-outputs', 'force'],
        relationships: ['run'],
        requestOnly: {
          md5: str('Hex MD5 of the decoded state', {
            pattern: '^[0-9a-fA-F]{32}$',
            example: '9a0364b9e99bb480dd25e1f0284c8555',
          }),
          lineage: str(undefined, { maxLength: 128 }),
          state: str('Base64 of the state file (or upload it to hosted-state-upload-url)'),
          'json-state': str('Base64 of the state in `terraform show -json` form'),
          'json-state-outputs': str('Base64 of the outputs in `terraform show -json` form'),
          force: bool('Skip the lineage and serial checks'),
        },
      },
    ],
  })
  @ApiErrors(409, 413)
  async create(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @JsonApiBody(CreateStateVersionAttributes, TYPE) body: ParsedBody<CreateStateVersionAttributes>,
    @LinkOrigin() origin: string,
  ): Promise<ResourceDocument> {
    return this.one(p, await this.writes.create(p, id, body), origin);
  }

  @Patch('workspaces/:id/state-versions')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Roll back to an earlier state version',
    description:
      'Needs admin access and the workspace lock, held by the caller. A copy of the finalized version named ' +
      'by `relationships.rollback-state-version` becomes the new current version (201).',
  })
  @Endpoint({
    effect: 'leaves-access-alone',
    create: [
      STATE_VERSION_DOC,
      {
        writable: [],
        relationships: ['rollback-state-version'],
        requiredRelationships: ['rollback-state-version'],
      },
    ],
  })
  @ApiErrors(409)
  async rollback(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @JsonApiBody(RollbackStateVersionAttributes, TYPE) body: ParsedBody<RollbackStateVersionAttributes>,
    @LinkOrigin() origin: string,
  ): Promise<ResourceDocument> {
    return this.one(p, await this.writes.rollback(p, id, body), origin);
  }

  @Get('state-versions')
  @ApiOperation({ summary: 'State versions of one workspace, newest first' })
  @Sortable({ 'created-at': 'createdAt', serial: 'serial' }, '-created-at')
  @Endpoint({
    list: [
      STATE_VERSION_DOC,
      {
        includes: STATE_VERSION_INCLUDES,
        includedDocs: INCLUDED_DOCS,
        query: {
          [FILTER_WORKSPACE]: 'Required: the name of the workspace',
          [FILTER_ORGANIZATION]: 'Required: the name of its organization',
          [FILTER_STATUS]: {
            description: 'only versions in this status',
            schema: enumOf(STATE_VERSION_STATUSES),
          },
        },
      },
    ],
  })
  async list(
    @CurrentPrincipal() p: Principal,
    @Paging() paging: PageParams,
    @Includes(STATE_VERSION_INCLUDES) includes: string[],
    @LinkOrigin() origin: string,
    @QueryValue(FILTER_WORKSPACE) workspace?: string,
    @QueryValue(FILTER_ORGANIZATION) organization?: string,
    @QueryValue(FILTER_STATUS) status?: string,
  ): Promise<CollectionDocument> {
    const filter = {
      workspace: required(workspace, FILTER_WORKSPACE),
      organization: required(organization, FILTER_ORGANIZATION),
      status: statusFilter(status),
    };
    const page = await this.reads.list(p, filter, paging);
    return new CollectionDocument(
      await this.presenter.resources(p, page.items, origin),
      pageResult(page),
      await this.presenter.included(p, page.items, includes, origin),
    );
  }

  @Get('state-versions/:id')
  @Endpoint({ show: [STATE_VERSION_DOC, STATE_VERSION_INCLUDES, INCLUDED_DOCS] })
  async show(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Includes(STATE_VERSION_INCLUDES) includes: string[],
    @LinkOrigin() origin: string,
  ): Promise<ResourceDocument> {
    return this.one(p, await this.reads.requireReadable(p, id), origin, includes);
  }

  @Get('workspaces/:id/current-state-version')
  @Endpoint({ show: [STATE_VERSION_DOC, STATE_VERSION_INCLUDES, INCLUDED_DOCS] })
  @ApiOperation({
    summary: "The workspace's current state version",
    description: 'The version runs and the CLI start from. 404 while the workspace has no state.',
  })
  async current(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Includes(STATE_VERSION_INCLUDES) includes: string[],
    @LinkOrigin() origin: string,
  ): Promise<ResourceDocument> {
    return this.one(p, await this.reads.current(p, id), origin, includes);
  }

  @Get('state-versions/:id/download')
  @ApiOperation({
    summary: 'Download the raw state (hosted-state-download-url)',
    description: 'Needs read access to the workspace and the bearer token. 404 while the version is pending.',
  })
  @ApiProduces('application/json')
  @ApiParam({ name: 'id', description: 'the state version' })
  @ApiResponse(DOWNLOAD_RESPONSE)
  @ApiErrors(401, 404)
  download(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<StreamableFile> {
    return this.file(p, id, 'state');
  }

  @Get('state-versions/:id/json-download')
  @ApiOperation({
    summary: 'Download the JSON state (hosted-json-state-download-url)',
    description: 'Needs read access to the workspace. 404 unless a JSON state was given.',
  })
  @ApiProduces('application/json')
  @ApiResponse(DOWNLOAD_RESPONSE)
  @ApiErrors(401, 404)
  jsonDownload(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<StreamableFile> {
    return this.file(p, id, 'json-state');
  }

  private async one(
    p: Principal,
    version: StateVersionEntity,
    origin: string,
    includes: string[] = [],
  ): Promise<ResourceDocument> {
    return new ResourceDocument(
      await this.presenter.resource(p, version, origin),
      await this.presenter.included(p, [version], includes, origin),
    );
  }

  private async file(p: Principal, id: string, kind: StateKind): Promise<StreamableFile> {
    const file = await this.reads.download(p, id, kind);
    return new StreamableFile(file.stream, {
      type: 'application/json',
      length: file.size,
      disposition: `attachment; filename="${id}${kind === 'state' ? '.tfstate' : '.json'}"`,
    }).setErrorHandler((err, res) => {
      // Past the headers: cutting the connection short is the only way left to say it failed.
      this.logger.error({ err, stateVersion: id }, 'a stored state file could not be read');
      res.destroy?.();
    });
  }
}

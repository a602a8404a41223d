import {
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
  Req,
  StreamableFile,
} from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiOperation,
  ApiProduces,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { API_V2 } from '../common/api-prefix';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import { Principal } from '../common/auth/principal';
import { pageResult } from '../common/sql/paginate';
import { DomainError } from '../common/errors/domain-error';
import { JsonApiBody, ParsedBody } from '../common/jsonapi/body';
import { CollectionDocument, ResourceDocument } from '../common/jsonapi/document';
import { ApiErrors, enumOf } from '../common/jsonapi/openapi';
import { JSON_BODY_TYPES } from '../common/jsonapi/media-type';
import { PageParams } from '../common/jsonapi/pagination';
import { Paging, QueryValue } from '../common/jsonapi/query';
import { CreatePolicyAttributes, UpdatePolicyAttributes } from './dto/policy-attributes.dto';
import { PoliciesService } from './policies.service';
import { POLICY_DOC, serializePolicy } from './policies.serializer';
import { KIND_ALIASES, POLICY_KINDS, parseKindFilter } from './policy-kinds';
import { Sortable } from '../common/jsonapi/sort';
import { Endpoint } from '../http/endpoint';

const TYPE = { types: ['policies'] };
const WRITABLE = { writable: ['name', 'description', 'kind', 'enforcement-level', 'enforce', 'query'] };

function declaredLength(req: Request): number | undefined {
  const raw = req.headers['content-length'];
  return raw ? Number(raw) : undefined;
}

@ApiTags('policies')
@ApiBearerAuth()
@Controller(API_V2)
export class PoliciesController {
  constructor(private readonly policies: PoliciesService) {}

  @Get('organizations/:org/policies')
  @Sortable({ name: 'name', 'created-at': 'createdAt' }, 'name')
  @Endpoint({
    list: [
      POLICY_DOC,
      {
        query: {
          'search[name]': 'substring of the policy name',
          'filter[kind]': {
            description: "framework_a or framework_b (or the real service's sentinel, opa)",
            schema: enumOf([...POLICY_KINDS, ...Object.keys(KIND_ALIASES)]),
          },
        },
      },
    ],
  })
  async list(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
    @Paging() paging: PageParams,
    @QueryValue('search[name]') search?: string,
    @QueryValue('filter[kind]') kind?: string,
  ): Promise<CollectionDocument> {
    const page = await this.policies.list(p, org, { search, kind: parseKindFilter(kind) }, paging);
    return new CollectionDocument(page.items.map(serializePolicy), pageResult(page));
  }

  @Post('organizations/:org/policies')
  @Endpoint({ effect: 'leaves-access-alone', create: [POLICY_DOC, WRITABLE] })
  async create(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
    @JsonApiBody(CreatePolicyAttributes, TYPE) body: ParsedBody<CreatePolicyAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(serializePolicy(await this.policies.create(p, org, body)));
  }

  @Get('policies/:id')
  @Endpoint({ show: [POLICY_DOC] })
  async show(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<ResourceDocument> {
    return new ResourceDocument(serializePolicy(await this.policies.show(p, id)));
  }

  @Patch('policies/:id')
  @Endpoint({ effect: 'leaves-access-alone', update: [POLICY_DOC, WRITABLE] })
  async update(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @JsonApiBody(UpdatePolicyAttributes, TYPE) body: ParsedBody<UpdatePolicyAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(serializePolicy(await this.policies.update(p, id, body)));
  }

  @Delete('policies/:id')
  @Endpoint({ effect: 'leaves-access-alone', delete: true })
  async remove(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.policies.delete(p, id);
  }

  @Put('policies/:id/upload')
  @Endpoint({ effect: 'leaves-access-alone' })
  @HttpCode(204)
  @ApiOperation({ summary: 'Upload the policy code: the raw text is the body (not a JSON document)' })
  @ApiConsumes('text/plain', 'application/octet-stream')
  @ApiBody({ schema: { type: 'string' } })
  @ApiResponse({ status: 204, description: 'Stored; no body' })
  @ApiErrors(401, 404, 413, 415)
  async upload(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Req() req: Request,
  ): Promise<void> {
    // JSON types are not read as JSON on this route (http/pipeline.ts): they are refused here.
    if (req.is(JSON_BODY_TYPES)) {
      throw new DomainError('unsupported-media-type', [
        {
          detail:
            'send the policy code as the raw body, e.g. Content-Type: text/plain or application/octet-stream',
        },
      ]);
    }
    await this.policies.uploadCode(p, id, req, declaredLength(req));
  }

  @Get('policies/:id/download')
  @ApiOperation({ summary: 'Download the policy code as text' })
  @ApiProduces('text/plain')
  @ApiResponse({ status: 200, description: 'The policy code', schema: { type: 'string' } })
  @ApiErrors(401, 404)
  async download(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<StreamableFile> {
    const code = await this.policies.downloadCode(p, id);
    return new StreamableFile(code.stream, { type: 'text/plain; charset=utf-8', length: code.size });
  }
}

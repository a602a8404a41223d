import { Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../../common/auth/current-principal.decorator';
import { Principal } from '../../common/auth/principal';
import { pageResult } from '../../common/sql/paginate';
import { JsonApiBody, ParsedBody } from '../../common/jsonapi/body';
import { CollectionDocument, ResourceDocument } from '../../common/jsonapi/document';
import { PageParams } from '../../common/jsonapi/pagination';
import { Paging, QueryValue } from '../../common/jsonapi/query';
import { CreateGpgKeyAttributes, UpdateGpgKeyAttributes } from './gpg-key-attributes.dto';
import { GPG_KEY_DOC, GPG_KEYS_BASE, serializeGpgKey } from './gpg-keys.serializer';
import { GpgKeysService, GpgKeyView } from './gpg-keys.service';
import { Sortable } from '../../common/jsonapi/sort';
import { Endpoint } from '../../http/endpoint';

const BODY = { types: ['gpg-keys'] };
const toResource = (v: GpgKeyView) => serializeGpgKey(v.key, v.namespace);

/** The private registry's GPG keys live outside /api/v2, as in the reference service. */
@ApiTags('gpg-keys')
@ApiBearerAuth()
@Controller(GPG_KEYS_BASE)
export class GpgKeysController {
  constructor(private readonly keys: GpgKeysService) {}

  @Get()
  @Sortable({ 'key-id': 'keyId', 'created-at': 'createdAt' }, 'created-at')
  @Endpoint({
    list: [
      GPG_KEY_DOC,
      {
        query: { 'filter[namespace]': 'required: comma list of namespaces (organization names)' },
      },
    ],
  })
  async list(
    @CurrentPrincipal() p: Principal,
    @Paging() paging: PageParams,
    @QueryValue('filter[namespace]') namespaces?: string,
  ): Promise<CollectionDocument> {
    const page = await this.keys.list(p, namespaces, paging);
    return new CollectionDocument(page.items.map(toResource), pageResult(page));
  }

  @Post()
  @Endpoint({
    effect: 'leaves-access-alone',
    create: [GPG_KEY_DOC, { writable: ['namespace', 'ascii-armor'] }],
  })
  async create(
    @CurrentPrincipal() p: Principal,
    @JsonApiBody(CreateGpgKeyAttributes, BODY) body: ParsedBody<CreateGpgKeyAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(toResource(await this.keys.create(p, body)));
  }

  @Get(':namespace/:key_id')
  @ApiParam({ name: 'namespace', description: 'Organization name' })
  @ApiParam({ name: 'key_id', description: '16 hex digits (any case)' })
  @Endpoint({ show: [GPG_KEY_DOC] })
  async show(
    @CurrentPrincipal() p: Principal,
    @Param('namespace') namespace: string,
    @Param('key_id') keyId: string,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(toResource(await this.keys.show(p, namespace, keyId)));
  }

  @Patch(':namespace/:key_id')
  @ApiParam({ name: 'namespace', description: 'Organization name' })
  @ApiParam({ name: 'key_id', description: '16 hex digits (any case)' })
  @Endpoint({ effect: 'leaves-access-alone', update: [GPG_KEY_DOC, { writable: ['namespace'] }] })
  async update(
    @CurrentPrincipal() p: Principal,
    @Param('namespace') namespace: string,
    @Param('key_id') keyId: string,
    @JsonApiBody(UpdateGpgKeyAttributes, { ...BODY, urlId: false }) body: ParsedBody<UpdateGpgKeyAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(toResource(await this.keys.update(p, namespace, keyId, body)));
  }

  @Delete(':namespace/:key_id')
  @ApiParam({ name: 'namespace', description: 'Organization name' })
  @ApiParam({ name: 'key_id', description: '16 hex digits (any case)' })
  @Endpoint({ effect: 'leaves-access-alone', delete: true })
  async remove(
    @CurrentPrincipal() p: Principal,
    @Param('namespace') namespace: string,
    @Param('key_id') keyId: string,
  ): Promise<void> {
    await this.keys.delete(p, namespace, keyId);
  }
}

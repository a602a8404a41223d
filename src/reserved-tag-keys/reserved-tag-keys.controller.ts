import { Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../common/api-prefix';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import { Principal } from '../common/auth/principal';
import { pageResult } from '../common/sql/paginate';
import { JsonApiBody, ParsedBody } from '../common/jsonapi/body';
import { CollectionDocument, ResourceDocument } from '../common/jsonapi/document';
import { PageParams } from '../common/jsonapi/pagination';
import { Paging } from '../common/jsonapi/query';
import { ReservedTagKeyAttributes } from './dto/reserved-tag-key-attributes.dto';
import { ReservedTagKeysService } from './reserved-tag-keys.service';
import { RESERVED_TAG_KEY_DOC, serializeReservedTagKey } from './reserved-tag-keys.serializer';
import { Sortable } from '../common/jsonapi/sort';
import { Endpoint } from '../http/endpoint';

const TYPE = { types: ['reserved-tag-keys'] };
const WRITABLE = { writable: ['key', 'disable-overrides'] };
/** The contract documents `/reserved-tags/:id`; the official clients call `/reserved-tag-keys/:id`. */
const BY_ID = ['reserved-tag-keys/:id', 'reserved-tags/:id'];

@ApiTags('reserved-tag-keys')
@ApiBearerAuth()
@Controller(API_V2)
export class ReservedTagKeysController {
  constructor(private readonly keys: ReservedTagKeysService) {}

  @Get('organizations/:org/reserved-tag-keys')
  @Sortable({ key: 'key', 'created-at': 'createdAt' }, 'key')
  @Endpoint({ list: [RESERVED_TAG_KEY_DOC] })
  async list(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
    @Paging() paging: PageParams,
  ): Promise<CollectionDocument> {
    const page = await this.keys.list(p, org, paging);
    return new CollectionDocument(page.items.map(serializeReservedTagKey), pageResult(page));
  }

  @Post('organizations/:org/reserved-tag-keys')
  @Endpoint({ effect: 'leaves-access-alone', create: [RESERVED_TAG_KEY_DOC, WRITABLE] })
  async create(
    @CurrentPrincipal() p: Principal,
    @Param('org') org: string,
    @JsonApiBody(ReservedTagKeyAttributes, TYPE) body: ParsedBody<ReservedTagKeyAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(serializeReservedTagKey(await this.keys.create(p, org, body.attributes)));
  }

  @Get(BY_ID)
  @Endpoint({ show: [RESERVED_TAG_KEY_DOC] })
  async show(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<ResourceDocument> {
    return new ResourceDocument(serializeReservedTagKey(await this.keys.requireReadable(p, id)));
  }

  @Patch(BY_ID)
  @Endpoint({ effect: 'leaves-access-alone', update: [RESERVED_TAG_KEY_DOC, WRITABLE] })
  async update(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @JsonApiBody(ReservedTagKeyAttributes, TYPE) body: ParsedBody<ReservedTagKeyAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(serializeReservedTagKey(await this.keys.update(p, id, body.attributes)));
  }

  @Delete(BY_ID)
  @Endpoint({ effect: 'leaves-access-alone', delete: true })
  async remove(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.keys.delete(p, id);
  }
}

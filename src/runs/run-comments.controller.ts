import { Controller, Get, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../common/api-prefix';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import { Principal } from '../common/auth/principal';
import { JsonApiBody, ParsedBody } from '../common/jsonapi/body';
import { CollectionDocument, ResourceDocument } from '../common/jsonapi/document';
import { PageParams } from '../common/jsonapi/pagination';
import { Paging } from '../common/jsonapi/query';
import { pageResult } from '../common/sql/paginate';
import { CreateCommentAttributes } from './dto/comment-attributes.dto';
import { COMMENT_DOC, serializeComment } from './run-comments.serializer';
import { RunCommentsService } from './run-comments.service';
import { Sortable } from '../common/jsonapi/sort';
import { Endpoint } from '../http/endpoint';

@ApiTags('runs')
@ApiBearerAuth()
@Controller(API_V2)
export class RunCommentsController {
  constructor(private readonly comments: RunCommentsService) {}

  @Get('runs/:id/comments')
  @ApiOperation({
    summary: "A run's comments, oldest first",
    description: 'Comments posted on their own and those given with apply, discard, cancel and force-cancel.',
  })
  @Sortable({ 'created-at': 'createdAt' }, 'created-at')
  @Endpoint({ list: [COMMENT_DOC] })
  async list(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Paging() paging: PageParams,
  ): Promise<CollectionDocument> {
    const page = await this.comments.list(p, id, paging);
    return new CollectionDocument(page.items.map(serializeComment), pageResult(page));
  }

  @Post('runs/:id/comments')
  @ApiOperation({ summary: 'Comment on a run (anyone who can read it)' })
  @Endpoint({ effect: 'leaves-access-alone', create: [COMMENT_DOC, { writable: ['body'] }] })
  async create(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @JsonApiBody(CreateCommentAttributes, { types: ['comments'], typeRequired: false })
    body: ParsedBody<CreateCommentAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(serializeComment(await this.comments.create(p, id, body.attributes.body)));
  }

  @Get('comments/:id')
  @ApiOperation({ summary: 'One comment (needs read access to its run)' })
  @Endpoint({ show: [COMMENT_DOC] })
  async show(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<ResourceDocument> {
    return new ResourceDocument(serializeComment(await this.comments.show(p, id)));
  }
}

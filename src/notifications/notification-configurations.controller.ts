import { Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../common/api-prefix';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import { Principal } from '../common/auth/principal';
import { JsonApiBody, ParsedBody } from '../common/jsonapi/body';
import { CollectionDocument, ResourceDocument } from '../common/jsonapi/document';
import { ApiErrors } from '../common/jsonapi/openapi';
import { PageParams } from '../common/jsonapi/pagination';
import { Paging } from '../common/jsonapi/query';
import { Sortable } from '../common/jsonapi/sort';
import { pageResult } from '../common/sql/paginate';
import {
  CreateNotificationConfigurationAttributes,
  UpdateNotificationConfigurationAttributes,
} from './dto/notification-configuration-attributes.dto';
import {
  NOTIFICATION_CONFIGURATION_DOC,
  serializeNotificationConfiguration,
} from './notification-configurations.serializer';
import { NotificationConfigurationsService } from './notification-configurations.service';
import { Endpoint } from '../http/endpoint';

/** go-tfe sends the plural type; the real service's documentation shows the singular. */
const TYPE = { types: ['notification-configurations', 'notification-configuration'] };
const WRITABLE = ['name', 'destination-type', 'enabled', 'url', 'token', 'triggers', 'email-addresses'];
const VERIFY_NOTE =
  'Enabling sends the verification payload first: when it fails the answer is 400 and nothing is stored ' +
  '(create) or changed (update). A URL whose host is not a public address (nor in the networks the ' +
  'operator allowed) is a 422.';

@ApiTags('notification configurations')
@ApiBearerAuth()
@Controller(API_V2)
export class NotificationConfigurationsController {
  constructor(private readonly configurations: NotificationConfigurationsService) {}

  @Post('workspaces/:workspace_id/notification-configurations')
  @ApiParam({ name: 'workspace_id', description: 'the workspace (admin access needed)' })
  @Endpoint({
    effect: 'leaves-access-alone',
    create: [NOTIFICATION_CONFIGURATION_DOC, { writable: WRITABLE, relationships: ['users'] }],
  })
  @ApiOperation({ summary: 'Create a notification configuration', description: VERIFY_NOTE })
  async create(
    @CurrentPrincipal() p: Principal,
    @Param('workspace_id') workspaceId: string,
    @JsonApiBody(CreateNotificationConfigurationAttributes, TYPE)
    body: ParsedBody<CreateNotificationConfigurationAttributes>,
  ): Promise<ResourceDocument> {
    const nc = await this.configurations.create(p, workspaceId, body);
    return new ResourceDocument(serializeNotificationConfiguration(nc));
  }

  @Get('workspaces/:workspace_id/notification-configurations')
  @ApiParam({ name: 'workspace_id', description: 'the workspace (admin access needed)' })
  @Sortable({ 'created-at': 'createdAt', name: 'name' }, 'created-at')
  @Endpoint({ list: [NOTIFICATION_CONFIGURATION_DOC] })
  async list(
    @CurrentPrincipal() p: Principal,
    @Param('workspace_id') workspaceId: string,
    @Paging() paging: PageParams,
  ): Promise<CollectionDocument> {
    const page = await this.configurations.list(p, workspaceId, paging);
    return new CollectionDocument(page.items.map(serializeNotificationConfiguration), pageResult(page));
  }

  @Get('notification-configurations/:id')
  @Endpoint({ show: [NOTIFICATION_CONFIGURATION_DOC] })
  async show(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<ResourceDocument> {
    return new ResourceDocument(serializeNotificationConfiguration(await this.configurations.show(p, id)));
  }

  @Patch('notification-configurations/:id')
  @Endpoint({
    effect: 'leaves-access-alone',
    update: [NOTIFICATION_CONFIGURATION_DOC, { writable: WRITABLE, relationships: ['users'] }],
  })
  @ApiOperation({ summary: 'Update a notification configuration', description: VERIFY_NOTE })
  async update(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @JsonApiBody(UpdateNotificationConfigurationAttributes, TYPE)
    body: ParsedBody<UpdateNotificationConfigurationAttributes>,
  ): Promise<ResourceDocument> {
    const nc = await this.configurations.update(p, id, body);
    return new ResourceDocument(serializeNotificationConfiguration(nc));
  }

  @Post('notification-configurations/:id/actions/verify')
  @HttpCode(200)
  @Endpoint({ effect: 'leaves-access-alone', show: [NOTIFICATION_CONFIGURATION_DOC] })
  @ApiErrors(400)
  @ApiOperation({
    summary: 'Send the verification payload now',
    description: 'Records the answer in delivery-responses; 400 when the destination did not accept it.',
  })
  async verify(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<ResourceDocument> {
    return new ResourceDocument(serializeNotificationConfiguration(await this.configurations.verify(p, id)));
  }

  @Delete('notification-configurations/:id')
  @Endpoint({ effect: 'leaves-access-alone', delete: true })
  async remove(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.configurations.delete(p, id);
  }
}

import { Controller, Get, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../common/api-prefix';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import { Principal } from '../common/auth/principal';
import { JsonApiBody, ParsedBody } from '../common/jsonapi/body';
import { ResourceDocument } from '../common/jsonapi/document';
import { str } from '../common/jsonapi/openapi';
import { CreateUserAttributes } from './dto/user-attributes.dto';
import { serializeUser, USER_DOC } from './users.serializer';
import { UsersService } from './users.service';
import { Endpoint } from '../http/endpoint';

@ApiTags('users')
@ApiBearerAuth()
@Controller(API_V2)
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get('account/details')
  @Endpoint({ show: [USER_DOC] })
  async account(@CurrentPrincipal() p: Principal): Promise<ResourceDocument> {
    return new ResourceDocument(serializeUser(await this.users.current(p), true));
  }

  @Get('users/:id')
  @Endpoint({ show: [USER_DOC] })
  async show(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<ResourceDocument> {
    return new ResourceDocument(serializeUser(await this.users.requireVisible(p, id), true));
  }

  /** Site administrators add users (who then join organizations through team membership). */
  @Post('admin/users')
  @Endpoint({
    effect: 'changes-access',
    create: [
      USER_DOC,
      {
        writable: ['username', 'email', 'password', 'is-site-admin'],
        requestOnly: {
          password: str('10 to 128 characters', { format: 'password', minLength: 10, maxLength: 128 }),
        },
      },
    ],
  })
  async create(
    @CurrentPrincipal() p: Principal,
    @JsonApiBody(CreateUserAttributes, { types: ['users'] }) body: ParsedBody<CreateUserAttributes>,
  ): Promise<ResourceDocument> {
    return new ResourceDocument(serializeUser(await this.users.create(p, body.attributes), true));
  }
}

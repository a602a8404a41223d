import { Controller, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { API_V2 } from '../common/api-prefix';
import { Public } from '../common/auth/public.decorator';
import { JsonApiBody, ParsedBody } from '../common/jsonapi/body';
import { ResourceDocument } from '../common/jsonapi/document';
import { ApiCreate, ApiErrors } from '../common/jsonapi/openapi';
import { ChangesAccess } from '../http/write-effects';
import { LoginAttributes } from './dto/login-attributes.dto';
import { LoginService } from './login.service';
import { serializeToken, TOKEN_DOC } from './tokens.serializer';

@ApiTags('tokens')
@Controller(API_V2)
export class LoginController {
  constructor(private readonly login: LoginService) {}

  @Post('login')
  @Public()
  @ChangesAccess()
  @ApiOperation({
    summary:
      'Exchange a username and password for a new user token (rate limited per address; repeated failures lock the user out)',
  })
  @ApiCreate(TOKEN_DOC, { writable: ['username', 'password', 'description', 'expired-at'] })
  @ApiErrors(401, 429)
  async create(
    @Req() req: Request,
    @JsonApiBody(LoginAttributes, { types: ['authentication-tokens'] }) body: ParsedBody<LoginAttributes>,
  ): Promise<ResourceDocument> {
    const issued = await this.login.login(req.ip ?? req.socket.remoteAddress ?? 'unknown', body.attributes);
    return new ResourceDocument(serializeToken(issued.token, issued.secret));
  }
}

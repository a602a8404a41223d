import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { API_V2 } from '../common/api-prefix';
import { JsonApiBody, ParsedBody } from '../common/jsonapi/body';
import { ResourceDocument } from '../common/jsonapi/document';
import { ApiErrors, resourceSchema, str } from '../common/jsonapi/openapi';
import { LoginAttributes } from './dto/login-attributes.dto';
import { LoginService } from './login.service';
import { serializeToken, TOKEN_DOC } from './tokens.serializer';
import { Endpoint } from '../http/endpoint';

const LOGIN_BODY = {
  type: 'object',
  required: ['data'],
  properties: {
    data: {
      type: 'object',
      required: ['type', 'attributes'],
      properties: {
        type: { type: 'string', enum: ['authentication-tokens'] },
        attributes: {
          type: 'object',
          required: ['username', 'password'],
          properties: {
            username: str(),
            password: str(undefined, { format: 'password' }),
            description: { ...TOKEN_DOC.attributes.description },
            'expired-at': { ...TOKEN_DOC.attributes['expired-at'] },
          },
        },
      },
    },
  },
};

@ApiTags('tokens')
@Controller(API_V2)
export class LoginController {
  constructor(private readonly login: LoginService) {}

  @Post('login')
  @Endpoint({ auth: 'public', effect: 'changes-access' })
  @ApiOperation({
    summary:
      'Exchange a username and password for a new user token (guesses are slowed per address and per username; a 429 says in Retry-After when to try again)',
  })
  @HttpCode(201)
  @ApiBody({ schema: LOGIN_BODY })
  @ApiResponse({
    status: 201,
    schema: { type: 'object', required: ['data'], properties: { data: resourceSchema(TOKEN_DOC) } },
  })
  @ApiErrors(400, 401, 403, 415, 422, 429)
  async create(
    @Req() req: Request,
    @JsonApiBody(LoginAttributes, { types: ['authentication-tokens'] }) body: ParsedBody<LoginAttributes>,
  ): Promise<ResourceDocument> {
    const issued = await this.login.login(req.ip ?? req.socket.remoteAddress ?? 'unknown', body.attributes);
    return new ResourceDocument(serializeToken(issued.token, issued.secret));
  }
}

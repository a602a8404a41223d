import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { errorDocument, jsonApiContent } from '../common/jsonapi/openapi';
import { CliLoginService } from './cli-login.service';
import { TOKEN_ROUTE } from './login-v1';
import { OAuthError } from './oauth-error';
import { Endpoint } from '../http/endpoint';

const OAUTH_ERROR_SCHEMA = {
  type: 'object',
  required: ['error', 'error_description'],
  properties: {
    error: {
      type: 'string',
      enum: ['invalid_request', 'invalid_client', 'invalid_grant', 'unsupported_grant_type'],
    },
    error_description: { type: 'string' },
  },
  example: { error: 'invalid_grant', error_description: 'code_verifier does not match the code challenge.' },
};

const UNREADABLE_BODY = jsonApiContent(errorDocument(400).schema, errorDocument(400).example);

const TOKEN_SCHEMA = {
  type: 'object',
  required: ['access_token', 'token_type', 'expires_in'],
  properties: {
    access_token: { type: 'string', description: 'A user API token, shown this once' },
    token_type: { type: 'string', enum: ['bearer'] },
    expires_in: {
      type: 'integer',
      description: 'Seconds until the token expires (CLI_LOGIN_TOKEN_TTL_DAYS)',
    },
  },
};

/**
 * `login.v1`'s `token`: the OAuth 2.0 authorization-code exchange with PKCE (RFC 6749 §4.1.3,
 * RFC 7636), answered in OAuth's JSON (never JSON:API): the token, or `{error, error_description}`.
 */
@ApiTags('cli-login')
@Controller(TOKEN_ROUTE)
export class TokenController {
  constructor(private readonly cliLogin: CliLoginService) {}

  @Post()
  @Endpoint({ auth: 'public', effect: 'changes-access' })
  @HttpCode(200)
  @ApiOperation({
    summary: 'Exchange the code of `terraform login` for a user token (OAuth 2.0 with PKCE)',
    description:
      'A code works once and for 5 minutes; it is gone after any exchange, successful or not. The token ' +
      'is a user token described "terraform login", listed and revoked with the user’s other tokens.',
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['grant_type', 'code', 'redirect_uri', 'client_id', 'code_verifier'],
      properties: {
        grant_type: { type: 'string', enum: ['authorization_code'] },
        code: { type: 'string' },
        redirect_uri: { type: 'string', example: 'http://localhost:10000/login' },
        client_id: { type: 'string', enum: ['terraform-cli'] },
        code_verifier: { type: 'string', minLength: 43, maxLength: 128 },
      },
    },
  })
  @ApiResponse({
    status: 200,
    description: 'The token',
    content: { 'application/json': { schema: TOKEN_SCHEMA } },
  })
  @ApiResponse({
    status: 400,
    description:
      '`invalid_grant` (unknown, used or expired code; other redirect URI; wrong verifier), `invalid_request`, ' +
      '`unsupported_grant_type`, `invalid_client` (a client other than terraform-cli); a body that cannot be ' +
      'read is refused before the route, as a JSON:API error',
    content: { 'application/json': { schema: OAUTH_ERROR_SCHEMA }, ...UNREADABLE_BODY },
  })
  async exchange(@Req() req: Request, @Res() res: Response): Promise<void> {
    const form = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Pragma', 'no-cache');
    try {
      res.status(200).json(await this.cliLogin.exchange(form));
    } catch (err) {
      if (!(err instanceof OAuthError)) throw err;
      res.status(err.status).json({ error: err.error, error_description: err.description });
    }
  }
}

import { Body, Controller, Get, Header, HttpCode, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { badRequest } from '../common/errors/domain-error';
import { validateAttributes } from '../common/jsonapi/body';
import { ApiErrors } from '../common/jsonapi/openapi';
import { BootstrapService } from './bootstrap.service';
import { InitialAdminBody } from './dto/initial-admin.dto';
import { DirectClientGuard } from './direct-client.guard';
import { Endpoint } from '../http/endpoint';

@ApiTags('bootstrap')
/** One rule for both routes: from this machine, directly, never through a proxy. */
@UseGuards(DirectClientGuard)
/** The first administrator is a user with a token: access changes. */
@Controller('admin')
export class BootstrapController {
  constructor(private readonly bootstrap: BootstrapService) {}

  @Get('retrieve-iact')
  @Endpoint({ auth: 'public' })
  @Header('Content-Type', 'text/plain; charset=utf-8')
  @ApiOperation({
    summary:
      'The initial admin creation token (loopback clients only, never through a proxy, until an admin exists)',
  })
  @ApiResponse({
    status: 200,
    description: 'The initial admin creation token, as plain text',
    content: { 'text/plain': { schema: { type: 'string', example: 'Xb1rT0cN2f4kP9qLmZ7vW3sY8hJ5dG6a' } } },
  })
  @ApiErrors(404)
  async retrieveIact(): Promise<string> {
    return this.bootstrap.retrieveIact();
  }

  @Post('initial-admin-user')
  @Endpoint({ auth: 'public', effect: 'changes-access' })
  @HttpCode(201)
  @ApiOperation({
    summary:
      'Exchange the IACT (once) for the first site administrator and its API token (never through a proxy)',
  })
  @ApiBody({
    schema: {
      type: 'object',
      required: ['username', 'email', 'password'],
      properties: {
        username: { type: 'string', example: 'admin' },
        email: { type: 'string', format: 'email', example: 'admin@example.com' },
        password: { type: 'string', minLength: 10, maxLength: 128 },
      },
    },
  })
  @ApiResponse({
    status: 201,
    description: 'The first site administrator exists; `token` is its API token, shown once',
    headers: { Location: { description: 'The new user (`/api/v2/users/:id`)', schema: { type: 'string' } } },
    schema: {
      type: 'object',
      required: ['status', 'token'],
      properties: { status: { type: 'string', enum: ['created'] }, token: { type: 'string' } },
    },
  })
  @ApiErrors(400, 401, 404, 422)
  async createInitialAdmin(
    @Query('token') token: string | undefined,
    @Body() body: unknown,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ status: string; token: string }> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw badRequest('request body must be a JSON object with username, email and password');
    }
    const attrs = validateAttributes(InitialAdminBody, body as Record<string, unknown>);
    const created = await this.bootstrap.createInitialAdmin(
      typeof token === 'string' ? token : undefined,
      attrs,
    );
    res.setHeader('Location', `/api/v2/users/${created.userId}`);
    return { status: 'created', token: created.token };
  }
}

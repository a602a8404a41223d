import { Body, Controller, Get, Header, HttpCode, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Public } from '../common/auth/public.decorator';
import { notFound } from '../common/errors/domain-error';
import { validateAttributes } from '../common/jsonapi/body';
import { ApiErrors } from '../common/jsonapi/openapi';
import { BootstrapService } from './bootstrap.service';
import { InitialAdminBody } from './dto/initial-admin.dto';
import { isLoopback } from './loopback';

@ApiTags('bootstrap')
@Public()
@Controller('admin')
export class BootstrapController {
  constructor(private readonly bootstrap: BootstrapService) {}

  @Get('retrieve-iact')
  @Header('Content-Type', 'text/plain; charset=utf-8')
  @ApiOperation({
    summary: 'The initial admin creation token (loopback clients only, until an admin exists)',
  })
  @ApiErrors(404)
  async retrieveIact(@Req() req: Request): Promise<string> {
    if (!isLoopback(req.socket.remoteAddress)) throw notFound();
    return this.bootstrap.retrieveIact();
  }

  @Post('initial-admin-user')
  @HttpCode(201)
  @ApiOperation({ summary: 'Exchange the IACT (once) for the first site administrator and its API token' })
  @ApiErrors(400, 401, 422)
  async createInitialAdmin(
    @Query('token') token: string | undefined,
    @Body() body: unknown,
  ): Promise<{ status: string; token: string }> {
    const attrs = validateAttributes(InitialAdminBody, (body ?? {}) as Record<string, unknown>);
    return {
      status: 'created',
      token: await this.bootstrap.createInitialAdmin(typeof token === 'string' ? token : undefined, attrs),
    };
  }
}

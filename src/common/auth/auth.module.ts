import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { ChangeEpochGuard } from '../cache/change-epoch.guard';
import { IncludeGuard } from '../jsonapi/include.guard';
import { AccessRepository } from './access.repository';
import { AuthCache } from './auth-cache';
import { BearerAuthGuard } from './bearer-auth.guard';
import { BearerStrategy } from './bearer.strategy';
import { PermissionService } from './permission.service';

@Global()
@Module({
  imports: [PassportModule],
  providers: [
    AccessRepository,
    AuthCache,
    PermissionService,
    BearerStrategy,
    // Global guards run in the order they are provided: the change epoch is learnt before the
    // token is looked up through the caches, `include` is checked after authentication.
    // (Remembered answers are given before routing: responseCacheMiddleware.)
    { provide: APP_GUARD, useClass: ChangeEpochGuard },
    { provide: APP_GUARD, useClass: BearerAuthGuard },
    { provide: APP_GUARD, useClass: IncludeGuard },
  ],
  exports: [PermissionService, AuthCache],
})
export class AuthModule {}

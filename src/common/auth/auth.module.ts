import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { AccessRepository } from './access.repository';
import { BearerAuthGuard } from './bearer-auth.guard';
import { BearerStrategy } from './bearer.strategy';
import { PermissionService } from './permission.service';

@Global()
@Module({
  imports: [PassportModule],
  providers: [
    AccessRepository,
    PermissionService,
    BearerStrategy,
    { provide: APP_GUARD, useClass: BearerAuthGuard },
  ],
  exports: [PermissionService],
})
export class AuthModule {}

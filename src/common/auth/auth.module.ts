import { Global, Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { AccessRepository } from './access.repository';
import { AuthCache } from './auth-cache';
import { BearerStrategy } from './bearer.strategy';
import { PermissionService } from './permission.service';
import { TokenUsage } from './token-usage';

@Global()
@Module({
  imports: [PassportModule],
  providers: [AccessRepository, AuthCache, PermissionService, BearerStrategy, TokenUsage],
  exports: [PermissionService, AuthCache, TokenUsage],
})
export class AuthModule {}

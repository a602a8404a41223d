import { Global, Module } from '@nestjs/common';
import { AccessRepository } from './access.repository';
import { AuthCache } from './auth-cache';
import { AuthStrategies } from './auth-strategies';
import { BearerStrategy } from './bearer.strategy';
import { BearerTokens } from './bearer-tokens';
import { PermissionService } from './permission.service';
import { TokenUsage } from './token-usage';

@Global()
@Module({
  providers: [AccessRepository, AuthCache, AuthStrategies, PermissionService, BearerTokens, BearerStrategy, TokenUsage],
  exports: [PermissionService, AuthCache, AuthStrategies, TokenUsage, BearerTokens],
})
export class AuthModule {}

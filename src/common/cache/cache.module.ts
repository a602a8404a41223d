import { Global, Module } from '@nestjs/common';
import { TypeOrmModule, getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { ChangeEpoch, SqlEpochStore } from './change-epoch';
import { ChangeEpochEntity } from './entities/change-epoch.entity';
import { ResponseCache } from './response-cache';

/**
 * The shared change epoch that every module's caches build on, and the response cache. The epoch's
 * guard is registered with the other global guards (AuthModule), which fixes their order; the
 * response cache answers before routing (responseCacheMiddleware, mounted by configureApp).
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([ChangeEpochEntity])],
  providers: [
    {
      provide: ChangeEpoch,
      inject: [AppConfig, getDataSourceToken()],
      useFactory: (config: AppConfig, ds: DataSource) =>
        new ChangeEpoch(new SqlEpochStore(ds), config.cacheTtlMs > 0),
    },
    ResponseCache,
  ],
  exports: [ChangeEpoch, ResponseCache],
})
export class CacheModule {}

import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { TypeOrmModule, getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { ChangeEpoch, SqlEpochStore } from './change-epoch';
import { ChangeEpochEntity } from './entities/change-epoch.entity';
import { ResponseCache } from './response-cache';
import { ResponseCacheInterceptor } from './response-cache.interceptor';

/**
 * The shared change epoch that every module's caches build on, and the response cache. The
 * epoch's guard is registered with the other global guards (AuthModule), ahead of them.
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
    { provide: APP_INTERCEPTOR, useClass: ResponseCacheInterceptor },
  ],
  exports: [ChangeEpoch, ResponseCache],
})
export class CacheModule {}

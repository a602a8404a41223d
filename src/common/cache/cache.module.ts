import { Global, Module } from '@nestjs/common';
import { TypeOrmModule, getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { ChangeEpoch, SqlEpochStore } from './change-epoch';
import { ChangeEpochEntity } from './entities/change-epoch.entity';

/**
 * The shared change epoch that every module's caches build on. Its guard and the response cache
 * belong to the request pipeline (src/http/).
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
  ],
  exports: [ChangeEpoch],
})
export class CacheModule {}

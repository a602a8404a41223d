import { Global, Module } from '@nestjs/common';
import { TypeOrmModule, getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { statementTablesOf } from '../../persistence/statement-tables';
import { trackStatements } from '../../persistence/statement-tracking';
import { ChangeEpoch } from './change-epoch';
import { ChangedTableEntity } from './entities/changed-table.entity';
import { ChangeEpochEntity } from './entities/change-epoch.entity';
import { currentReadSet } from './read-set';
import { EPOCH_TABLES, SqlEpochStore } from './sql-epoch-store';

/**
 * The shared change counters that every module's caches build on, fed by every statement the data
 * source runs. Its guard and the response cache belong to the request pipeline (src/http/).
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([ChangeEpochEntity, ChangedTableEntity])],
  providers: [
    {
      provide: ChangeEpoch,
      inject: [AppConfig, getDataSourceToken()],
      useFactory: (config: AppConfig, ds: DataSource) => {
        const epoch = new ChangeEpoch(new SqlEpochStore(ds), config.cacheTtlMs > 0);
        if (epoch.enabled) {
          trackStatements(ds, statementTablesOf(ds, EPOCH_TABLES), {
            read: (tables) => currentReadSet()?.add(tables),
            wrote: (tables) => epoch.wrote(tables),
            noted: (tables) => epoch.noted(tables),
          });
        }
        return epoch;
      },
    },
  ],
  exports: [ChangeEpoch],
})
export class CacheModule {}

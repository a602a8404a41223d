import { Global, Module } from '@nestjs/common';
import { TypeOrmModule, getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { statementTablesOf } from '../../persistence/statement-tables';
import { trackStatements } from '../../persistence/statement-tracking';
import { ChangeEpoch } from './change-epoch';
import { ChangedTableEntity } from './entities/changed-table.entity';
import { ChangeEpochEntity } from './entities/change-epoch.entity';
import { EpochMemberEntity } from './entities/epoch-member.entity';
import { EpochLease } from './epoch-lease';
import { currentReadSet } from './read-set';
import { EPOCH_TABLES, SqlEpochStore } from './sql-epoch-store';

/**
 * The shared change counters that every module's caches build on, fed by every statement the data
 * source runs. Its guard and the response cache belong to the request pipeline (src/http/).
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([ChangeEpochEntity, ChangedTableEntity, EpochMemberEntity])],
  providers: [
    {
      provide: ChangeEpoch,
      inject: [AppConfig, getDataSourceToken()],
      useFactory: (config: AppConfig, ds: DataSource) => {
        const store = new SqlEpochStore(ds);
        const epoch = new ChangeEpoch(store, config.cacheTtlMs > 0);
        if (epoch.enabled) {
          const lease = new EpochLease(store, {
            lastRead: () => epoch.readOnce(),
            catchUp: () => epoch.catchUp(),
            lapsed: () => epoch.lapsed(),
          });
          epoch.useLease(lease);
          lease.start();
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

import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * When each table last changed: the `change_epoch` counter value of the advance that last named it
 * (SqlEpochStore). A row appears the first time its table is written.
 */
@Entity('changed_tables')
export class ChangedTableEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  name: string;

  @Column({ type: 'bigint', default: 0 })
  stamp: string;
}

import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The installation's change counters, one row each: id 1 moves with every advance and orders them
 * (its value stamps the tables an advance names, `changed_tables`), id 2 only with writes that may
 * change tokens or rights, id 3 with the advances that named their tables (so id 1 − id 3 counts
 * those that did not: an older process's, or a bulk change). See ChangeEpoch and SqlEpochStore.
 */
@Entity('change_epoch')
export class ChangeEpochEntity {
  @PrimaryColumn({ type: 'int' })
  id: number;

  @Column({ type: 'bigint', default: 0 })
  value: string;
}

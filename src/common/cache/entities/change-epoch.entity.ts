import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The installation's change epochs, one row each: id 1 the number every write request advances
 * before it answers, id 2 the one only writes that may change tokens or rights advance. Processes
 * compare them with what their caches were computed under (ChangeEpoch).
 */
@Entity('change_epoch')
export class ChangeEpochEntity {
  @PrimaryColumn({ type: 'int' })
  id: number;

  @Column({ type: 'bigint', default: 0 })
  value: string;
}

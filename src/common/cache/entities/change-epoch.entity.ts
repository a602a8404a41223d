import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One row (id 1) holding the installation's change epoch: a number every write request advances
 * before it answers. Processes compare it with what their caches were computed under (ChangeEpoch).
 */
@Entity('change_epoch')
export class ChangeEpochEntity {
  @PrimaryColumn({ type: 'int' })
  id: number;

  @Column({ type: 'bigint', default: 0 })
  value: string;
}

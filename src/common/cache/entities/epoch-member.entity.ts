import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The processes that use the database, each with a lease (EpochLease): a process alone on the
 * database may skip the change counters, and one that joins waits until it no longer does. Rows
 * are changed only under the lock of `change_epoch` row 4 (SqlEpochStore).
 */
@Entity('epoch_members')
export class EpochMemberEntity {
  /** A random id per joining, so a process that lost its lease joins again as a new member. */
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  /** Until when the member counts, in milliseconds since 1970 by the database's clock. */
  @Column({ type: 'bigint' })
  leaseUntil: string;

  /** The member skips the counters: no other member was live when it last renewed. */
  @Column({ type: 'boolean', default: false })
  alone: boolean;
}

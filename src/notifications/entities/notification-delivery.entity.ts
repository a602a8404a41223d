import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../common/sql/columns';
import { NotificationConfigurationEntity } from './notification-configuration.entity';

/**
 * The outbox: one notification for one configuration, written in the transaction of the run move
 * that raised it, then claimed and sent by any node (`due` → `sending` → `delivered` or `failed`,
 * or back to `due` for a retry).
 */
@Entity('notification_deliveries')
@Index('ix_notification_deliveries_due', ['status', 'dueAt'])
@Index('ix_notification_deliveries_configuration', ['configurationId'])
export class NotificationDeliveryEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  configurationId: string;

  @ManyToOne(() => NotificationConfigurationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'configuration_id',
    foreignKeyConstraintName: 'fk_notification_deliveries_configuration',
  })
  configuration?: NotificationConfigurationEntity;

  @Column({ type: 'varchar', length: 64 })
  trigger: string;

  /** JSON of the run event as it was at the move (RunEvent). */
  @Column({ type: 'text' })
  event: string;

  /** `due`, `sending`, `delivered` or `failed`. */
  @Column({ type: 'varchar', length: 16 })
  status: string;

  /** Attempts started so far; the compare-and-set key of every claim and result. */
  @Column({ type: 'int' })
  attempts: number;

  /** `due`: when it may be sent; `sending`: when the claim lapses (its node died) and any node may take it. */
  @TimestampColumn()
  dueAt: Date;

  @Column({ type: 'text', nullable: true })
  lastError: string | null;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn({ nullable: true })
  finishedAt: Date | null;
}

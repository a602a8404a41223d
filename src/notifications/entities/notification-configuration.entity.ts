import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { BoolColumn, TimestampColumn } from '../../common/sql/columns';
import { WorkspaceEntity } from '../../workspaces/entities/workspace.entity';

/** Where a workspace's run events are sent: a webhook, a chat channel or email recipients. */
@Entity('notification_configurations')
@Index('ix_notification_configurations_workspace', ['workspaceId', 'createdAt'])
export class NotificationConfigurationEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  workspaceId: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'fk_notification_configurations_workspace' })
  workspace?: WorkspaceEntity;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  /** `generic`, `slack`, `microsoft-teams` or `email`. */
  @Column({ type: 'varchar', length: 32 })
  destinationType: string;

  @BoolColumn()
  enabled: boolean;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  url: string | null;

  /** The HMAC key of generic deliveries, sealed (secrets module); never shown again. */
  @Column({ type: 'text', nullable: true })
  sealedToken: string | null;

  /** JSON array of trigger names. */
  @Column({ type: 'text' })
  triggers: string;

  /** JSON array of email addresses (email destinations). */
  @Column({ type: 'text' })
  emailAddresses: string;

  /** JSON array of user ids (email destinations: the `users` relationship). */
  @Column({ type: 'text' })
  emailUserIds: string;

  /** JSON array of the latest delivery responses, newest first (bounded). */
  @Column({ type: 'text' })
  deliveryResponses: string;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}

import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { BoolColumn, TimestampColumn } from '../../common/sql/columns';
import { WorkspaceEntity } from '../../workspaces/entities/workspace.entity';

export const CONFIGURATION_VERSION_STATUSES = ['pending', 'uploaded', 'errored'] as const;
export type ConfigurationVersionStatus = (typeof CONFIGURATION_VERSION_STATUSES)[number];

/** An uploaded tar.gz of infrastructure code that runs plan and apply. */
@Entity('configuration_versions')
// Creation times are strictly increasing per workspace (the service makes them so): "newest" is exact.
@Index('uq_configuration_versions_workspace_created', ['workspaceId', 'createdAt'], { unique: true })
export class ConfigurationVersionEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  workspaceId: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'fk_configuration_versions_workspace' })
  workspace?: WorkspaceEntity;

  @Column({ type: 'varchar', length: 16 })
  status: ConfigurationVersionStatus;

  /** Queue a run as soon as the archive is uploaded. */
  @BoolColumn()
  autoQueueRuns: boolean;

  /** Runs of a speculative version only plan. */
  @BoolColumn()
  speculative: boolean;

  /**
   * The version becomes the workspace's configuration only once a run of it applies; until then
   * runs that name no version do not pick it.
   */
  @BoolColumn()
  provisional: boolean;

  /** Why the archive was refused; null unless errored. */
  @Column({ type: 'text', nullable: true })
  errorMessage: string | null;

  /** The user whose token created it (null for team and organization tokens). */
  @Column({ type: 'varchar', length: 32, nullable: true })
  createdById: string | null;

  /** Where the accepted archive is in the blob store (one key per upload attempt). */
  @Column({ type: 'varchar', length: 200, nullable: true })
  archiveKey: string | null;

  @Column({ type: 'int', nullable: true })
  archiveSize: number | null;

  @TimestampColumn({ nullable: true })
  uploadedAt: Date | null;

  @TimestampColumn({ nullable: true })
  erroredAt: Date | null;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}

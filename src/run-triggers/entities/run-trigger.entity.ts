import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../common/sql/columns';
import { WorkspaceEntity } from '../../workspaces/entities/workspace.entity';

/**
 * A run in the sourceable workspace queues a run in the destination workspace. Names are not
 * stored: they are joined from the workspaces at read time, so a rename shows at once.
 */
@Entity('run_triggers')
@Index('uq_run_triggers_workspace_sourceable', ['workspaceId', 'sourceableId'], { unique: true })
@Index('ix_run_triggers_sourceable', ['sourceableId'])
export class RunTriggerEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  /** The destination: where the triggered runs are queued. */
  @Column({ type: 'varchar', length: 32 })
  workspaceId: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'fk_run_triggers_workspace' })
  workspace?: WorkspaceEntity;

  /** The source: a finished run here triggers the destination. */
  @Column({ type: 'varchar', length: 32 })
  sourceableId: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'sourceable_id', foreignKeyConstraintName: 'fk_run_triggers_sourceable' })
  sourceable?: WorkspaceEntity;

  @TimestampColumn()
  createdAt: Date;
}

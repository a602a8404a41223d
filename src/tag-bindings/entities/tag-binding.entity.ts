import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../common/sql/columns';
import { ProjectEntity } from '../../projects/entities/project.entity';
import { WorkspaceEntity } from '../../workspaces/entities/workspace.entity';

/** A key/value tag bound to exactly one project or one workspace (the other id is null). */
@Entity('tag_bindings')
@Index('uq_tag_bindings_project_key', ['projectId', 'key'], { unique: true })
@Index('uq_tag_bindings_workspace_key', ['workspaceId', 'key'], { unique: true })
export class TagBindingEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32, nullable: true })
  projectId: string | null;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_tag_bindings_project' })
  project?: ProjectEntity;

  @Column({ type: 'varchar', length: 32, nullable: true })
  workspaceId: string | null;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'fk_tag_bindings_workspace' })
  workspace?: WorkspaceEntity;

  @Column({ type: 'varchar', length: 128 })
  key: string;

  /** Empty for a key-only tag. */
  @Column({ type: 'varchar', length: 256 })
  value: string;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}

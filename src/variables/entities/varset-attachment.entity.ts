import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../projects/entities/project.entity';
import { WorkspaceEntity } from '../../workspaces/entities/workspace.entity';
import { VariableSetEntity } from './variable-set.entity';

/** A variable set attached to a workspace. */
@Entity('varset_workspaces')
@Index('ix_varset_workspaces_workspace', ['workspaceId'])
export class VarsetWorkspaceEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  varsetId: string;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  workspaceId: string;

  @ManyToOne(() => VariableSetEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'varset_id', foreignKeyConstraintName: 'fk_varset_workspaces_varset' })
  varset?: VariableSetEntity;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'fk_varset_workspaces_workspace' })
  workspace?: WorkspaceEntity;
}

/** A variable set attached to a project: it applies to every workspace of the project. */
@Entity('varset_projects')
@Index('ix_varset_projects_project', ['projectId'])
export class VarsetProjectEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  varsetId: string;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  projectId: string;

  @ManyToOne(() => VariableSetEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'varset_id', foreignKeyConstraintName: 'fk_varset_projects_varset' })
  varset?: VariableSetEntity;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_varset_projects_project' })
  project?: ProjectEntity;
}

import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../common/sql/columns';
import { WorkspaceEntity } from '../../workspaces/entities/workspace.entity';
import { PolicySetEntity } from './policy-set.entity';

/** A workspace the set is enforced on (non-global sets). Deleting either side removes it. */
@Entity('policy_set_workspaces')
@Index('ix_policy_set_workspaces_workspace', ['workspaceId'])
export class PolicySetWorkspaceEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  policySetId: string;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  workspaceId: string;

  @ManyToOne(() => PolicySetEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'policy_set_id', foreignKeyConstraintName: 'fk_policy_set_workspaces_set' })
  policySet?: PolicySetEntity;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'fk_policy_set_workspaces_workspace' })
  member?: WorkspaceEntity;

  @TimestampColumn()
  createdAt: Date;
}

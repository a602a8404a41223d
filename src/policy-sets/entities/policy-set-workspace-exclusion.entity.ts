import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../common/sql/columns';
import { WorkspaceEntity } from '../../workspaces/entities/workspace.entity';
import { PolicySetEntity } from './policy-set.entity';

/** A workspace the set is not enforced on, even when global or attached through its project. */
@Entity('policy_set_workspace_exclusions')
@Index('ix_policy_set_workspace_exclusions_workspace', ['workspaceId'])
export class PolicySetWorkspaceExclusionEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  policySetId: string;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  workspaceId: string;

  @ManyToOne(() => PolicySetEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'policy_set_id', foreignKeyConstraintName: 'fk_policy_set_workspace_exclusions_set' })
  policySet?: PolicySetEntity;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'workspace_id',
    foreignKeyConstraintName: 'fk_policy_set_workspace_exclusions_workspace',
  })
  member?: WorkspaceEntity;

  @TimestampColumn()
  createdAt: Date;
}

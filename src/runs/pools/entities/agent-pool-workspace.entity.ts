import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { WorkspaceEntity } from '../../../workspaces/entities/workspace.entity';
import { AgentPoolEntity } from './agent-pool.entity';

/** A workspace named in a pool's `allowed-workspaces`. */
@Entity('agent_pool_allowed_workspaces')
@Index('ix_agent_pool_allowed_workspaces_workspace', ['workspaceId'])
export class AgentPoolWorkspaceEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  poolId: string;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  workspaceId: string;

  @ManyToOne(() => AgentPoolEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'pool_id', foreignKeyConstraintName: 'fk_agent_pool_allowed_workspaces_pool' })
  pool?: AgentPoolEntity;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'workspace_id',
    foreignKeyConstraintName: 'fk_agent_pool_allowed_workspaces_workspace',
  })
  workspace?: WorkspaceEntity;
}

import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../../common/sql/columns';
import { UserEntity } from '../../../users/entities/user.entity';
import { AgentPoolEntity } from './agent-pool.entity';

/**
 * A token executors of one pool authenticate with. Like API tokens, only the SHA-256 digest of the
 * secret is kept; the secret is shown once. It authenticates the agent routes and nothing else.
 */
@Entity('agent_tokens')
@Index('ix_agent_tokens_pool', ['poolId'])
export class AgentTokenEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  poolId: string;

  @ManyToOne(() => AgentPoolEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'pool_id', foreignKeyConstraintName: 'fk_agent_tokens_pool' })
  pool?: AgentPoolEntity;

  @Index('uq_agent_tokens_digest', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  digest: string;

  @Column({ type: 'varchar', length: 255 })
  description: string;

  @Column({ type: 'varchar', length: 32, nullable: true })
  createdById: string | null;

  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'created_by_id', foreignKeyConstraintName: 'fk_agent_tokens_created_by' })
  createdBy?: UserEntity;

  @TimestampColumn({ nullable: true })
  lastUsedAt: Date | null;

  @TimestampColumn()
  createdAt: Date;
}

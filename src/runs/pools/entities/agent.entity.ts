import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../../common/sql/columns';
import { AgentPoolEntity } from './agent-pool.entity';
import { AgentTokenEntity } from './agent-token.entity';

/**
 * What is stored of an executor's status. `unknown` and `busy` are not written: an agent whose last
 * ping is too old reads as unknown, and one that holds a job as busy (see agent-status.ts). Rows
 * written before busy was derived may still hold `busy`, which reads the same as `idle`.
 */
export type StoredAgentStatus = 'idle' | 'busy' | 'errored' | 'exited';

/** One executor process, registered with an agent token of its pool. */
@Entity('agents')
@Index('ix_agents_pool', ['poolId', 'lastPingAt'])
export class AgentEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  poolId: string;

  @ManyToOne(() => AgentPoolEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'pool_id', foreignKeyConstraintName: 'fk_agents_pool' })
  pool?: AgentPoolEntity;

  /** The token it registered with; a revoked token leaves the agent listed (and unable to call in). */
  @Column({ type: 'varchar', length: 32, nullable: true })
  tokenId: string | null;

  @ManyToOne(() => AgentTokenEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'token_id', foreignKeyConstraintName: 'fk_agents_token' })
  token?: AgentTokenEntity;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 16 })
  status: StoredAgentStatus;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ipAddress: string | null;

  @TimestampColumn()
  lastPingAt: Date;

  @TimestampColumn()
  createdAt: Date;
}

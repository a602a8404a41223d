import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../common/sql/columns';
import { RunEntity } from './run.entity';
import type { PhaseKind, PhaseStatus } from '../run-rules';

/** A run's plan (`plan-…`) or apply (`apply-…`): what the executor reported about that phase. */
@Entity('run_phases')
// Plan JSON retention walks the plans that ended before a date, oldest first (run-retention.repository.ts).
@Index('ix_run_phases_kind_updated', ['kind', 'updatedAt'])
export class RunPhaseEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  runId: string;

  @ManyToOne(() => RunEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'run_id', foreignKeyConstraintName: 'fk_run_phases_run' })
  run?: RunEntity;

  @Column({ type: 'varchar', length: 8 })
  kind: PhaseKind;

  @Column({ type: 'varchar', length: 16 })
  status: PhaseStatus;

  /** `{"queued-at": …, "started-at": …, "finished-at": …}`. */
  @Column({ type: 'text' })
  statusTimestamps: string;

  @Column({ type: 'boolean', nullable: true })
  hasChanges: boolean | null;

  @Column({ type: 'int', default: 0 })
  resourceAdditions: number;

  @Column({ type: 'int', default: 0 })
  resourceChanges: number;

  @Column({ type: 'int', default: 0 })
  resourceDestructions: number;

  @Column({ type: 'int', default: 0 })
  resourceImports: number;

  /** The agent that ran it, shown as `execution-details`. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  agentId: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  agentPoolId: string | null;

  @Column({ type: 'text', nullable: true })
  errorMessage: string | null;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}

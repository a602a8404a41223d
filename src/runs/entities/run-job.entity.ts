import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../common/sql/columns';
import { RunPhaseEntity } from './run-phase.entity';
import type { JobStatus, PhaseKind } from '../run-rules';

/** One unit of executor work: a plan or an apply phase, claimed by exactly one agent. */
@Entity('run_jobs')
@Index('uq_run_jobs_phase', ['phaseId'], { unique: true })
// "No work" is one lookup on this index.
@Index('ix_run_jobs_claimable', ['status', 'agentPoolId', 'organizationId', 'createdAt'])
@Index('ix_run_jobs_heartbeat', ['status', 'heartbeatAt'])
export class RunJobEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  phaseId: string;

  @ManyToOne(() => RunPhaseEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'phase_id', foreignKeyConstraintName: 'fk_run_jobs_phase' })
  phase?: RunPhaseEntity;

  @Column({ type: 'varchar', length: 32 })
  runId: string;

  @Column({ type: 'varchar', length: 8 })
  kind: PhaseKind;

  @Column({ type: 'varchar', length: 16 })
  status: JobStatus;

  @Column({ type: 'varchar', length: 32 })
  organizationId: string;

  /** The workspace's agent pool when the job was queued; null: any organization-scoped pool. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  agentPoolId: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  agentId: string | null;

  @TimestampColumn({ nullable: true })
  claimedAt: Date | null;

  @TimestampColumn({ nullable: true })
  heartbeatAt: Date | null;

  /** The executor's report as received (canonical JSON), so a repeat can be told from a change. */
  @Column({ type: 'text', nullable: true })
  report: string | null;

  @TimestampColumn({ nullable: true })
  finishedAt: Date | null;

  @TimestampColumn()
  createdAt: Date;
}

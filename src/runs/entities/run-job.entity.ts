import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../common/sql/columns';
import { RunPhaseEntity } from './run-phase.entity';
import { RunEntity } from './run.entity';
import type { JobKind, JobStatus } from '../run-rules';

/**
 * One unit of executor work, claimed by exactly one agent: a plan or an apply phase, or one policy
 * evaluation of the run's policy check (the policy-checks module owns the evaluation).
 */
@Entity('run_jobs')
@Index('uq_run_jobs_phase', ['phaseId'], { unique: true })
@Index('uq_run_jobs_evaluation', ['evaluationId'], { unique: true })
// "No work" is one lookup on this index.
@Index('ix_run_jobs_claimable', ['status', 'agentPoolId', 'organizationId', 'createdAt'])
@Index('ix_run_jobs_heartbeat', ['status', 'heartbeatAt'])
export class RunJobEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  /** The plan or apply; null for a policy evaluation. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  phaseId: string | null;

  @ManyToOne(() => RunPhaseEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'phase_id', foreignKeyConstraintName: 'fk_run_jobs_phase' })
  phase?: RunPhaseEntity;

  /** Deleting the run deletes its jobs (policy evaluations have no phase to cascade through). */
  @Column({ type: 'varchar', length: 32 })
  runId: string;

  @ManyToOne(() => RunEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'run_id', foreignKeyConstraintName: 'fk_run_jobs_run' })
  run?: RunEntity;

  /** The policy evaluation (`poleval-…`) of a `policy-evaluation` job; null otherwise. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  evaluationId: string | null;

  @Column({ type: 'varchar', length: 24 })
  kind: JobKind;

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

import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { BoolColumn, TimestampColumn } from '../../../common/sql/columns';
import { RunEntity } from '../../entities/run.entity';
import type { PolicyCheckStatus } from '../policy-check-rules';

/**
 * A run's policy check (`polchk-…`): the real service's Policy Check, one per run, over every
 * policy set that applied to the workspace when the plan finished.
 */
@Entity('policy_checks')
@Index('uq_policy_checks_run', ['runId'], { unique: true })
export class PolicyCheckEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  runId: string;

  @ManyToOne(() => RunEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'run_id', foreignKeyConstraintName: 'fk_policy_checks_run' })
  run?: RunEntity;

  /** Copied from the workspace: who may override is an organization permission. */
  @Column({ type: 'varchar', length: 32 })
  organizationId: string;

  @Column({ type: 'varchar', length: 32 })
  workspaceId: string;

  @Column({ type: 'varchar', length: 16 })
  status: PolicyCheckStatus;

  /** `{"queued-at": "…+00:00", "passed-at": …}`. */
  @Column({ type: 'text' })
  statusTimestamps: string;

  @Column({ type: 'int', default: 0 })
  passed: number;

  @Column({ type: 'int', default: 0 })
  advisoryFailed: number;

  @Column({ type: 'int', default: 0 })
  softFailed: number;

  @Column({ type: 'int', default: 0 })
  hardFailed: number;

  /** Plan-only runs end `policy_soft_failed` and cannot be overridden. */
  @BoolColumn()
  planOnly: boolean;

  /** `users`, `teams` or `organizations`, and the id of who overrode the check. */
  @Column({ type: 'varchar', length: 16, nullable: true })
  overriddenByType: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  overriddenById: string | null;

  @TimestampColumn({ nullable: true })
  overriddenAt: Date | null;

  /** Why the check errored (an evaluation errored, its executor went quiet). */
  @Column({ type: 'text', nullable: true })
  errorMessage: string | null;

  @TimestampColumn({ nullable: true })
  finishedAt: Date | null;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}

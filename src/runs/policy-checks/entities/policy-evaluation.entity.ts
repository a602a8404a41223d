import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { BoolColumn, TimestampColumn } from '../../../common/sql/columns';
import type { PolicyKind } from '../../../policies/policy-kinds';
import type { EvaluationStatus } from '../policy-check-rules';
import { PolicyCheckEntity } from './policy-check.entity';

/**
 * One policy set's evaluation in a check (`poleval-…`), with the snapshot of the set taken when
 * the check started (its policies are PolicyOutcomeEntity rows), and its outcome, shown as the
 * `policy-set-outcomes` resource `psout-…` (one per evaluation).
 */
@Entity('policy_evaluations')
@Index('ix_policy_evaluations_check', ['policyCheckId', 'position'])
@Index('uq_policy_evaluations_outcome', ['outcomeId'], { unique: true })
export class PolicyEvaluationEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  policyCheckId: string;

  @ManyToOne(() => PolicyCheckEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'policy_check_id', foreignKeyConstraintName: 'fk_policy_evaluations_check' })
  policyCheck?: PolicyCheckEntity;

  /** Order within the check (the sets by name). */
  @Column({ type: 'int' })
  position: number;

  @Column({ type: 'varchar', length: 32 })
  outcomeId: string;

  /** The set as it was; no key: the set may be deleted while the record stays. */
  @Column({ type: 'varchar', length: 32 })
  policySetId: string;

  @Column({ type: 'varchar', length: 128 })
  policySetName: string;

  @Column({ type: 'text', nullable: true })
  policySetDescription: string | null;

  @Column({ type: 'varchar', length: 16 })
  policyKind: PolicyKind;

  @Column({ type: 'varchar', length: 64 })
  policyToolVersion: string;

  @BoolColumn()
  overridable: boolean;

  /** The version evaluated, for versioned sets. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  policySetVersionId: string | null;

  /** Where the version's archive is (versions never change once ready). */
  @Column({ type: 'varchar', length: 255, nullable: true })
  bundleKey: string | null;

  @Column({ type: 'varchar', length: 16 })
  status: EvaluationStatus;

  @Column({ type: 'text' })
  statusTimestamps: string;

  /** Why the set was skipped or the evaluation errored. */
  @Column({ type: 'text', nullable: true })
  error: string | null;

  @Column({ type: 'int', default: 0 })
  passed: number;

  @Column({ type: 'int', default: 0 })
  advisoryFailed: number;

  @Column({ type: 'int', default: 0 })
  softFailed: number;

  @Column({ type: 'int', default: 0 })
  hardFailed: number;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}

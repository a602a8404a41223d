import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { PolicyOutcomeStatus } from '../policy-check-rules';
import { PolicyEvaluationEntity } from './policy-evaluation.entity';

/**
 * One policy of an evaluation: snapshotted with its enforcement level and code when the check
 * started (sets of individual policies), or recorded from the report (versioned sets, whose own
 * configuration names the policies); then its result and the engine's output.
 */
@Entity('policy_outcomes')
@Index('ix_policy_outcomes_evaluation', ['evaluationId', 'position'])
export class PolicyOutcomeEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  evaluationId: string;

  @ManyToOne(() => PolicyEvaluationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'evaluation_id', foreignKeyConstraintName: 'fk_policy_outcomes_evaluation' })
  evaluation?: PolicyEvaluationEntity;

  @Column({ type: 'int' })
  position: number;

  @Column({ type: 'varchar', length: 128 })
  policyName: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 32 })
  enforcementLevel: string;

  @Column({ type: 'varchar', length: 512, nullable: true })
  query: string | null;

  /** The copy of the code taken at the snapshot; null when none was uploaded (or for versioned sets). */
  @Column({ type: 'varchar', length: 255, nullable: true })
  codeKey: string | null;

  @Column({ type: 'varchar', length: 16 })
  status: PolicyOutcomeStatus;

  @Column({ type: 'text', nullable: true })
  output: string | null;
}

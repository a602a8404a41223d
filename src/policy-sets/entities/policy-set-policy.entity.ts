import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../common/sql/columns';
import { PolicyEntity } from '../../policies/entities/policy.entity';
import { PolicySetEntity } from './policy-set.entity';

/** A policy that is a member of a set. Deleting either side removes the membership. */
@Entity('policy_set_policies')
@Index('ix_policy_set_policies_policy', ['policyId'])
export class PolicySetPolicyEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  policySetId: string;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  policyId: string;

  @ManyToOne(() => PolicySetEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'policy_set_id', foreignKeyConstraintName: 'fk_policy_set_policies_set' })
  policySet?: PolicySetEntity;

  @ManyToOne(() => PolicyEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'policy_id', foreignKeyConstraintName: 'fk_policy_set_policies_policy' })
  member?: PolicyEntity;

  @TimestampColumn()
  createdAt: Date;
}

import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { BoolColumn, JsonStringColumn, TimestampColumn } from '../../common/sql/columns';
import { PolicySetEntity } from './policy-set.entity';

/**
 * A parameter (`var-…`, category `policy-set`) of a policy set: a key and value handed to the policy
 * engine with every evaluation of the set. A sensitive value is kept only sealed
 * (secrets/envelope.ts, bound to the parameter's id); any other value only in `value`. Keys are
 * unique per set through `keyDigest` (SHA-256 of the key), case-sensitively on both databases.
 */
@Entity('policy_set_parameters')
@Index('uq_policy_set_parameters_key', ['policySetId', 'keyDigest'], { unique: true })
export class PolicySetParameterEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  policySetId: string;

  @ManyToOne(() => PolicySetEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'policy_set_id', foreignKeyConstraintName: 'fk_policy_set_parameters_set' })
  policySet?: PolicySetEntity;

  @Column({ type: 'varchar', length: 128 })
  key: string;

  @Column({ type: 'varchar', length: 64 })
  keyDigest: string;

  /** The value of a parameter that is not sensitive (see JsonStringColumn). */
  @JsonStringColumn()
  value: string | null;

  /** The sealed value of a sensitive parameter; null otherwise. */
  @Column({ type: 'json', nullable: true })
  sealedValue: string | null;

  @BoolColumn()
  sensitive: boolean;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}

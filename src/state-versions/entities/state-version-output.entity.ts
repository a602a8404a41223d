import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { BoolColumn } from '../../common/sql/columns';
import { StateVersionEntity } from './state-version.entity';

/**
 * One output (`wsout-…`) of a finalized state version. Its value is sealed (secrets/envelope.ts)
 * under a data key of its own, bound to the output's id.
 */
@Entity('state_version_outputs')
// Not unique: names differ by case alone (`foo`, `Foo`), which MySQL's collations would not tell apart.
@Index('ix_state_version_outputs_version_name', ['stateVersionId', 'name'])
export class StateVersionOutputEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  stateVersionId: string;

  @ManyToOne(() => StateVersionEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'state_version_id', foreignKeyConstraintName: 'fk_state_version_outputs_version' })
  stateVersion?: StateVersionEntity;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @BoolColumn()
  sensitive: boolean;

  /** The coarse JSON type: `string`, `number`, `boolean`, `array`, `object` or `null`. */
  @Column({ type: 'varchar', length: 16 })
  type: string;

  /** The type as Terraform writes it (`"string"`, `["list","string"]`, …): any JSON value. */
  @Column({ type: 'json' })
  detailedType: string | number | boolean | null | object;

  /** The sealed JSON text of the value (a JSON string in a JSON column: values can be large). */
  @Column({ type: 'json' })
  sealedValue: string;
}

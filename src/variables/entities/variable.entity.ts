import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { BoolColumn, JsonStringColumn, TimestampColumn } from '../../common/sql/columns';
import { WorkspaceEntity } from '../../workspaces/entities/workspace.entity';
import { VariableSetEntity } from './variable-set.entity';

export type VariableCategory = 'terraform' | 'env';

/**
 * One variable (`var-…`) of a workspace or of a variable set: exactly one of the two owners is set.
 * A sensitive value is kept only sealed (secrets/envelope.ts, bound to the variable's id); any other
 * value only in `value`. Keys are unique per owner and category through `keyDigest` (the SHA-256 of
 * the key): MySQL's collations would take `foo` and `FOO` for the same key, Terraform does not.
 */
@Entity('variables')
@Index('uq_variables_workspace_key', ['workspaceId', 'category', 'keyDigest'], { unique: true })
@Index('uq_variables_varset_key', ['varsetId', 'category', 'keyDigest'], { unique: true })
export class VariableEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32, nullable: true })
  workspaceId: string | null;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'fk_variables_workspace' })
  workspace?: WorkspaceEntity;

  @Column({ type: 'varchar', length: 32, nullable: true })
  varsetId: string | null;

  @ManyToOne(() => VariableSetEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'varset_id', foreignKeyConstraintName: 'fk_variables_varset' })
  varset?: VariableSetEntity;

  @Column({ type: 'varchar', length: 128 })
  key: string;

  @Column({ type: 'varchar', length: 64 })
  keyDigest: string;

  @Column({ type: 'varchar', length: 16 })
  category: VariableCategory;

  /** The value of a variable that is not sensitive (see JsonStringColumn). */
  @JsonStringColumn()
  value: string | null;

  /** The sealed value of a sensitive variable; null otherwise. */
  @Column({ type: 'json', nullable: true })
  sealedValue: string | null;

  @Column({ type: 'varchar', length: 512 })
  description: string;

  @BoolColumn()
  hcl: boolean;

  @BoolColumn()
  sensitive: boolean;

  /** Opaque, new on every update (even one that changes nothing), as the reference does. */
  @Column({ type: 'varchar', length: 64 })
  versionId: string;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}

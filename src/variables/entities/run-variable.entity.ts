import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { RunEntity } from '../../runs/entities/run.entity';

/**
 * A variable given to one run (`POST /runs`, `variables`: the CLI's `-var`, `-var-file` and
 * `TF_VAR_*`). Its value is an HCL literal expression as the CLI sends it, kept sealed: the CLI does
 * not say which of them are secrets.
 */
@Entity('run_variables')
@Index('ix_run_variables_run', ['runId', 'position'])
export class RunVariableEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  runId: string;

  @ManyToOne(() => RunEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'run_id', foreignKeyConstraintName: 'fk_run_variables_run' })
  run?: RunEntity;

  /** The order the run was given them in. */
  @Column({ type: 'int' })
  position: number;

  @Column({ type: 'varchar', length: 128 })
  key: string;

  /** The sealed value (secrets/envelope.ts), bound to this row's id. */
  @Column({ type: 'json' })
  sealedValue: string;
}

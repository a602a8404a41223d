import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { RunEntity } from '../../runs/entities/run.entity';

/**
 * The variables one run received, fixed when its plan was claimed, so that its apply receives the
 * same. Kept sealed (values in clear inside, sensitive ones too) until the run ends; it goes with
 * the run.
 */
@Entity('run_variable_snapshots')
export class RunVariableSnapshotEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  runId: string;

  @OneToOne(() => RunEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'run_id', foreignKeyConstraintName: 'fk_run_variable_snapshots_run' })
  run?: RunEntity;

  /** The sealed JSON list of entries (secrets/envelope.ts), bound to the run's id. */
  @Column({ type: 'json' })
  sealedVariables: string;
}

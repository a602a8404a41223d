import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../common/sql/columns';
import { RunEntity } from './run.entity';

/**
 * What one run trigger did for one applied source run: the run it queued, or why none. The unique
 * key makes the firing exactly-once however often the executor's report arrives.
 */
@Entity('run_trigger_outcomes')
@Index('uq_run_trigger_outcomes_trigger_source', ['runTriggerId', 'sourceRunId'], { unique: true })
export class RunTriggerOutcomeEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  /** No key to run_triggers: the outcome stays in the source run's history after the trigger goes. */
  @Column({ type: 'varchar', length: 32 })
  runTriggerId: string;

  @Column({ type: 'varchar', length: 32 })
  sourceRunId: string;

  @ManyToOne(() => RunEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'source_run_id', foreignKeyConstraintName: 'fk_run_trigger_outcomes_source_run' })
  sourceRun?: RunEntity;

  @Column({ type: 'varchar', length: 32 })
  workspaceId: string;

  @Column({ type: 'varchar', length: 32, nullable: true })
  runId: string | null;

  @Column({ type: 'text', nullable: true })
  reason: string | null;

  @TimestampColumn()
  createdAt: Date;
}

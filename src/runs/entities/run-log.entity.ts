import { Column, Entity, Index, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { BoolColumn, TimestampColumn } from '../../common/sql/columns';
import { RunPhaseEntity } from './run-phase.entity';

const byteCount = { to: (v: number) => v, from: (v: unknown) => Number(v) };

/**
 * Where a plan's or apply's log stands. Offsets count bytes of everything the executor sent, cut
 * or not, so they never move under a reader. While the phase runs its bytes are rows of
 * `run_log_chunks`; once it has ended they are moved into one blob (`archived`).
 */
@Entity('run_logs')
// The sweep that moves ended logs to the blob store looks only at the few still in rows.
@Index('ix_run_logs_archived', ['archived', 'updatedAt'])
export class RunLogEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  phaseId: string;

  @OneToOne(() => RunPhaseEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'phase_id', foreignKeyConstraintName: 'fk_run_logs_phase' })
  phase?: RunPhaseEntity;

  /** Bytes the executor sent: where the next chunk starts. */
  @Column({ type: 'bigint', transformer: byteCount })
  size: number;

  /** Bytes cut from the head to keep the log under MAX_RUN_LOG_BYTES: the first byte kept. */
  @Column({ type: 'bigint', transformer: byteCount })
  dropped: number;

  /** The bytes `[dropped, size)` are in the blob store and the chunk rows are gone. */
  @BoolColumn()
  archived: boolean;

  @TimestampColumn()
  updatedAt: Date;
}

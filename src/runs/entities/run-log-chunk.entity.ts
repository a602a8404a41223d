import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { RunPhaseEntity } from './run-phase.entity';

const byteCount = { to: (v: number) => v, from: (v: unknown) => Number(v) };

/**
 * Bytes `[firstByte, endByte)` of a running phase's log, as appended. A row holds at most
 * `LOG_ROW_BYTES` (a MariaDB BLOB holds 64 KiB).
 */
@Entity('run_log_chunks')
export class RunLogChunkEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  phaseId: string;

  @ManyToOne(() => RunPhaseEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'phase_id', foreignKeyConstraintName: 'fk_run_log_chunks_phase' })
  phase?: RunPhaseEntity;

  @PrimaryColumn({ type: 'bigint', transformer: byteCount })
  firstByte: number;

  @Column({ type: 'bigint', transformer: byteCount })
  endByte: number;

  @Column({ type: 'blob' })
  data: Buffer;
}

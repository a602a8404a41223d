import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { BoolColumn, TimestampColumn } from '../../common/sql/columns';
import { RunEntity } from '../../runs/entities/run.entity';
import { WorkspaceEntity } from '../../workspaces/entities/workspace.entity';
import type { StateResource, StateSummary } from '../state-file';

export const STATE_VERSION_STATUSES = ['pending', 'finalized', 'discarded'] as const;
export type StateVersionStatus = (typeof STATE_VERSION_STATUSES)[number];

/** Serials are JSON integers: read back as numbers, whatever the driver makes of a BIGINT. */
const serialNumber = { to: (v: number) => v, from: (v: unknown) => Number(v) };

/**
 * One state version (`sv-…`) of a workspace. Its state file and, if sent, its JSON form live in
 * the blob store, each encrypted under a data key of its own whose wrapped form is kept here.
 */
@Entity('state_versions')
@Index('ix_state_versions_workspace_created', ['workspaceId', 'createdAt'])
@Index('ix_state_versions_workspace_status', ['workspaceId', 'status'])
export class StateVersionEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  workspaceId: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'fk_state_versions_workspace' })
  workspace?: WorkspaceEntity;

  @Column({ type: 'varchar', length: 16 })
  status: StateVersionStatus;

  @Column({ type: 'bigint', transformer: serialNumber })
  serial: number;

  @Column({ type: 'varchar', length: 128, nullable: true })
  lineage: string | null;

  /** Lower-case hex MD5 of the raw state, as declared at creation and checked against the upload. */
  @Column({ type: 'varchar', length: 32 })
  md5: string;

  /** The run that wrote it, if any. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  runId: string | null;

  @ManyToOne(() => RunEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'run_id', foreignKeyConstraintName: 'fk_state_versions_run' })
  run?: RunEntity;

  /** The user who created it (null for team tokens). */
  @Column({ type: 'varchar', length: 32, nullable: true })
  createdById: string | null;

  /** The version a rollback copied. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  rollbackOfId: string | null;

  /** Blob key of the encrypted raw state; null while pending. Rollback copies share their original's. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  stateBlobKey: string | null;

  /** The raw state's data key, wrapped (see secrets/envelope.ts). */
  @Column({ type: 'varchar', length: 255, nullable: true })
  stateDataKey: string | null;

  /** Bytes of the raw state. */
  @Column({ type: 'int', nullable: true })
  size: number | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  jsonStateBlobKey: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  jsonStateDataKey: string | null;

  @Column({ type: 'int', nullable: true })
  jsonStateSize: number | null;

  /** The state file format (`version` inside it). */
  @Column({ type: 'int', nullable: true })
  stateFormat: number | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  terraformVersion: string | null;

  /** What the state holds, read from it when it was finalized. */
  @Column({ type: 'json', nullable: true })
  resources: StateResource[] | null;

  @Column({ type: 'json', nullable: true })
  modules: StateSummary['modules'] | null;

  @Column({ type: 'json', nullable: true })
  providers: StateSummary['providers'] | null;

  /** Managed resource instances: the workspace's `resource-count` while this version is current. */
  @Column({ type: 'int', default: 0 })
  resourceCount: number;

  @BoolColumn()
  resourcesProcessed: boolean;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}

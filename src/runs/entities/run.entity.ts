import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { BoolColumn, TimestampColumn } from '../../common/sql/columns';
import { WorkspaceEntity } from '../../workspaces/entities/workspace.entity';
import type { RunStatus } from '../run-rules';

@Entity('runs')
@Index('ix_runs_workspace_created', ['workspaceId', 'createdAt'])
// A status filter reads its page in order from here (the queue reads the first two columns).
@Index('ix_runs_workspace_status_created', ['workspaceId', 'status', 'createdAt'])
export class RunEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  /** Deleting a workspace deletes its runs; the triggering-run links of other workspaces' runs stay. */
  @Column({ type: 'varchar', length: 32 })
  workspaceId: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'fk_runs_workspace' })
  workspace?: WorkspaceEntity;

  @Column({ type: 'varchar', length: 32 })
  configurationVersionId: string;

  @Column({ type: 'varchar', length: 32 })
  status: RunStatus;

  /** `{"plan-queueable-at": "…+00:00", "planned-at": …}`: one key per status passed through. */
  @Column({ type: 'text' })
  statusTimestamps: string;

  @Column({ type: 'text' })
  message: string;

  @BoolColumn()
  isDestroy: boolean;

  @BoolColumn()
  planOnly: boolean;

  @BoolColumn()
  autoApply: boolean;

  /** Refresh the state before planning (the tool's `-refresh=false` when not). */
  @BoolColumn({ default: true })
  refresh: boolean;

  /** Plan only the refresh of the state (`-refresh-only`). */
  @BoolColumn()
  refreshOnly: boolean;

  /** Resource addresses the plan is limited to (`-target`); null on runs older than the column. */
  @Column({ type: 'json', nullable: true })
  targetAddrs: string[] | null;

  /** Resource addresses the plan replaces (`-replace`); null on runs older than the column. */
  @Column({ type: 'json', nullable: true })
  replaceAddrs: string[] | null;

  /** A plan without changes may still be confirmed and applied (to write outputs or a new state). */
  @BoolColumn()
  allowEmptyApply: boolean;

  /** The plan may generate configuration for import blocks. */
  @BoolColumn()
  allowConfigGeneration: boolean;

  /**
   * A saved plan: it plans at once without the workspace's lock or queue, stops in
   * `planned_and_saved`, and takes both only when someone applies it.
   */
  @BoolColumn()
  savePlan: boolean;

  /**
   * The variables the run's jobs receive, fixed when its plan is claimed (so that a change made
   * between plan and apply does not reach the apply), sealed by the variables module and bound to
   * the run's id (RunSnapshotsService); null before its plan's claim and once it ended. Kept in the
   * run's own row: the claim, the apply's claim and the run's end write or read the row anyway.
   * Never part of an answer, and read only where a job's payload may need it (the claim's
   * candidates, a report's run) or a key rotation: other reads leave it unset (`select: false`),
   * hence undefined.
   */
  @Column({ type: 'json', nullable: true, select: false })
  variableSnapshot?: string | null;

  /** When someone applied a saved plan: from then on it is the workspace's current run. */
  @TimestampColumn({ nullable: true })
  confirmedAt: Date | null;

  /** The tool version a plan-only run asks for; null: the executor's own. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  terraformVersion: string | null;

  /** `tfe-api`, `tfe-configuration-version` or `tfe-run-trigger`. */
  @Column({ type: 'varchar', length: 32 })
  source: string;

  @Column({ type: 'varchar', length: 255 })
  triggerReason: string;

  @Column({ type: 'varchar', length: 32, nullable: true })
  createdById: string | null;

  /** The run in a source workspace that queued this one; no key: it may be deleted with its workspace. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  triggeringRunId: string | null;

  @Column({ type: 'varchar', length: 32 })
  planId: string;

  @Column({ type: 'varchar', length: 32 })
  applyId: string;

  @BoolColumn()
  hasChanges: boolean;

  /** Why the run errored (the executor's message, or that it stopped reporting). */
  @Column({ type: 'text', nullable: true })
  errorMessage: string | null;

  /** When a cancel was asked for; the executor of a running phase stops and reports. */
  @TimestampColumn({ nullable: true })
  canceledAt: Date | null;

  @TimestampColumn({ nullable: true })
  forceCancelAvailableAt: Date | null;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}

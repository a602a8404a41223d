import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AgentPoolEntity } from '../../runs/pools/entities/agent-pool.entity';
import { BoolColumn, TimestampColumn } from '../../common/sql/columns';
import { OrganizationEntity } from '../../organizations/entities/organization.entity';
import { ProjectEntity } from '../../projects/entities/project.entity';

export const EXECUTION_MODES = ['remote', 'local', 'agent'] as const;
export type ExecutionMode = (typeof EXECUTION_MODES)[number];

@Entity('workspaces')
@Index('uq_workspaces_org_name', ['organizationId', 'name'], { unique: true })
@Index('ix_workspaces_project', ['projectId'])
@Index('ix_workspaces_agent_pool', ['agentPoolId'])
export class WorkspaceEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  organizationId: string;

  @ManyToOne(() => OrganizationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'fk_workspaces_organization' })
  organization?: OrganizationEntity;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  /** A project with workspaces cannot be deleted: the service refuses, the key backs it up. */
  @ManyToOne(() => ProjectEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_workspaces_project' })
  project?: ProjectEntity;

  @Column({ type: 'varchar', length: 90 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  /** `latest` or a version of the engine catalog (validated by the admin catalogs module). */
  @Column({ type: 'varchar', length: 64, default: 'latest' })
  engineVersion: string;

  /** A locked workspace starts no queued run until it is unlocked (see the runs module). */
  @BoolColumn()
  locked: boolean;

  /** Who holds the lock: `users`, `teams`, `organizations` or `runs` (a run that may apply), with that resource's id. */
  @Column({ type: 'varchar', length: 16, nullable: true })
  lockedByType: WorkspaceLockHolder['type'] | null;

  @Column({ type: 'varchar', length: 90, nullable: true })
  lockedById: string | null;

  /** `remote` (the organization's default executors), `local` (no runs here) or `agent` (one pool). */
  @Column({ type: 'varchar', length: 16, default: 'remote' })
  executionMode: ExecutionMode;

  /** Set exactly when `executionMode` is `agent`. A pool in use cannot be deleted: the key backs the service up. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  agentPoolId: string | null;

  @ManyToOne(() => AgentPoolEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'agent_pool_id', foreignKeyConstraintName: 'fk_workspaces_agent_pool' })
  agentPool?: AgentPoolEntity;

  @BoolColumn()
  autoApply: boolean;

  /** Runs queued by a run trigger apply on their own only when this is on. */
  @BoolColumn()
  autoApplyRunTrigger: boolean;

  /**
   * The state version runs and the CLI start from (owned by the state-versions module, which sets it
   * with `resourceCount` through WorkspacesService). No foreign key: state versions already
   * reference their workspace, and a key each way could not be dropped by either delete.
   */
  @Column({ type: 'varchar', length: 32, nullable: true })
  currentStateVersionId: string | null;

  /** Managed resource instances in the current state: a workspace with any is not safely deleted. */
  @Column({ type: 'int', default: 0 })
  resourceCount: number;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}

export interface WorkspaceLockHolder {
  /** `runs`: a run that may apply holds the lock from the start of its plan to its end. */
  type: 'users' | 'teams' | 'organizations' | 'runs';
  id: string;
}

import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../common/sql/columns';
import { WorkspaceEntity } from '../../workspaces/entities/workspace.entity';
import { TeamEntity } from './team.entity';

import { WorkspaceAccessLevel } from '../../common/auth/principal';

export { WORKSPACE_ACCESS_LEVELS } from '../../common/auth/principal';
export type { WorkspaceAccessLevel } from '../../common/auth/principal';

@Entity('team_workspaces')
@Index('uq_team_workspaces_team_ws', ['teamId', 'workspaceId'], { unique: true })
@Index('ix_team_workspaces_ws', ['workspaceId'])
export class TeamWorkspaceEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  teamId: string;

  @Column({ type: 'varchar', length: 32 })
  workspaceId: string;

  @ManyToOne(() => TeamEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'team_id', foreignKeyConstraintName: 'fk_team_workspaces_team' })
  team?: TeamEntity;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'fk_team_workspaces_workspace' })
  workspace?: WorkspaceEntity;

  @Column({ type: 'varchar', length: 8 })
  access: WorkspaceAccessLevel;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}

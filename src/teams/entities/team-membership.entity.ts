import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../common/sql/columns';
import { UserEntity } from '../../users/entities/user.entity';
import { TeamEntity } from './team.entity';

@Entity('team_memberships')
@Index('ix_team_memberships_user', ['userId'])
export class TeamMembershipEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  teamId: string;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  userId: string;

  @ManyToOne(() => TeamEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'team_id', foreignKeyConstraintName: 'fk_team_memberships_team' })
  team?: TeamEntity;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_team_memberships_user' })
  user?: UserEntity;

  @TimestampColumn()
  createdAt: Date;
}

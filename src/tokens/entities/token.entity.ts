import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { BoolColumn, TimestampColumn } from '../../common/sql/columns';
import { OrganizationEntity } from '../../organizations/entities/organization.entity';
import { TeamEntity } from '../../teams/entities/team.entity';
import { UserEntity } from '../../users/entities/user.entity';

export type TokenKind = 'user' | 'team' | 'organization';

/** An API token. Only the SHA-256 digest of its secret is kept; the secret is shown once. */
@Entity('tokens')
@Index('ix_tokens_user', ['userId'])
@Index('ix_tokens_team', ['teamId'])
@Index('ix_tokens_organization', ['organizationId'])
@Index('uq_tokens_team_description', ['teamId', 'description'], { unique: true })
export class TokenEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 16 })
  kind: TokenKind;

  @Index('uq_tokens_digest', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  digest: string;

  @Column({ type: 'varchar', length: 32, nullable: true })
  userId: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  teamId: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  organizationId: string | null;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_tokens_user' })
  user?: UserEntity;

  @ManyToOne(() => TeamEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'team_id', foreignKeyConstraintName: 'fk_tokens_team' })
  team?: TeamEntity;

  @ManyToOne(() => OrganizationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'fk_tokens_organization' })
  organization?: OrganizationEntity;

  /** A team's descriptions are unique (several null ones may coexist: other kinds have no team). */
  @Column({ type: 'varchar', length: 255, nullable: true })
  description: string | null;

  /**
   * The team token issued through `/teams/:id/authentication-token`: a team has at most one, and
   * issuing another replaces it. Tokens from `/teams/:id/authentication-tokens` are not.
   */
  @BoolColumn()
  legacy: boolean;

  @TimestampColumn({ nullable: true })
  expiresAt: Date | null;

  @TimestampColumn()
  createdAt: Date;

  /** When the token last authenticated a request, to the minute (written at most once a minute). */
  @TimestampColumn({ nullable: true })
  lastUsedAt: Date | null;
}

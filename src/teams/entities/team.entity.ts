import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { BoolColumn, TimestampColumn } from '../../common/sql/columns';
import { OrganizationEntity } from '../../organizations/entities/organization.entity';

@Entity('teams')
@Index('uq_teams_org_name', ['organizationId', 'name'], { unique: true })
export class TeamEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  organizationId: string;

  @ManyToOne(() => OrganizationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'fk_teams_organization' })
  organization?: OrganizationEntity;

  @Column({ type: 'varchar', length: 128 })
  name: string;

  /** The `owners` team: created with the organization, never deleted, all rights in it. */
  @BoolColumn()
  isOwners: boolean;

  @Column({ type: 'varchar', length: 16, default: 'secret' })
  visibility: 'secret' | 'organization';

  @BoolColumn()
  managePolicies: boolean;

  @BoolColumn()
  manageWorkspaces: boolean;

  @BoolColumn()
  manageProjects: boolean;

  @BoolColumn()
  manageProviders: boolean;

  /** Override soft-failed policy checks of runs (the real service's "Manage Policy Overrides"). */
  @BoolColumn()
  managePolicyOverrides: boolean;

  /** Create, change and attach the organization's variable sets (`manage-variable-sets`). */
  @BoolColumn()
  manageVariableSets: boolean;

  @BoolColumn()
  readWorkspaces: boolean;

  @BoolColumn()
  readProjects: boolean;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}

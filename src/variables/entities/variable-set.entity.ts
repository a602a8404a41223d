import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { BoolColumn, TimestampColumn } from '../../common/sql/columns';
import { OrganizationEntity } from '../../organizations/entities/organization.entity';
import { ProjectEntity } from '../../projects/entities/project.entity';

/**
 * A variable set (`varset-…`) of an organization, owned by the organization or by one of its
 * projects (`projectId`). Global sets apply to every workspace; the others to the workspaces and
 * projects they are attached to (varset_workspaces, varset_projects).
 */
@Entity('varsets')
@Index('uq_varsets_org_name', ['organizationId', 'name'], { unique: true })
export class VariableSetEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  organizationId: string;

  @ManyToOne(() => OrganizationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'fk_varsets_organization' })
  organization?: OrganizationEntity;

  /** The owning project; null when the organization owns the set. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  projectId: string | null;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_varsets_project' })
  project?: ProjectEntity;

  @Column({ type: 'varchar', length: 128 })
  name: string;

  @Column({ type: 'varchar', length: 512 })
  description: string;

  @BoolColumn()
  global: boolean;

  @BoolColumn()
  priority: boolean;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}

import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { BoolColumn, TimestampColumn } from '../../../common/sql/columns';
import { OrganizationEntity } from '../../../organizations/entities/organization.entity';

/** A group of executors of one organization; workspaces in `agent` mode send their jobs to one. */
@Entity('agent_pools')
@Index('uq_agent_pools_org_name', ['organizationId', 'name'], { unique: true })
export class AgentPoolEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  organizationId: string;

  @ManyToOne(() => OrganizationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'fk_agent_pools_organization' })
  organization?: OrganizationEntity;

  @Column({ type: 'varchar', length: 90 })
  name: string;

  /** Every workspace of the organization may use the pool, not only those allowed by name. */
  @BoolColumn({ default: true })
  organizationScoped: boolean;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}

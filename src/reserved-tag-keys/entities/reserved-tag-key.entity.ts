import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { BoolColumn, TimestampColumn } from '../../common/sql/columns';
import { OrganizationEntity } from '../../organizations/entities/organization.entity';

@Entity('reserved_tag_keys')
@Index('uq_reserved_tag_keys_org_key', ['organizationId', 'key'], { unique: true })
export class ReservedTagKeyEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  organizationId: string;

  @ManyToOne(() => OrganizationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'fk_reserved_tag_keys_organization' })
  organization?: OrganizationEntity;

  @Column({ type: 'varchar', length: 128 })
  key: string;

  /** Workspaces may not override an inherited tag with this key (checked when they write tags). */
  @BoolColumn()
  disableOverrides: boolean;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}

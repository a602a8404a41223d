import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../common/sql/columns';
import { OrganizationEntity } from '../../organizations/entities/organization.entity';

/** A public signing key of a private registry namespace (an organization). */
@Entity('registry_gpg_keys')
@Index('uq_registry_gpg_keys_org_key', ['organizationId', 'keyId'], { unique: true })
export class RegistryGpgKeyEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  organizationId: string;

  @ManyToOne(() => OrganizationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'fk_registry_gpg_keys_organization' })
  organization?: OrganizationEntity;

  /** 16 upper-case hex digits: the key id of the primary key, as read by OpenPGP. */
  @Column({ type: 'varchar', length: 16 })
  keyId: string;

  @Column({ type: 'text' })
  asciiArmor: string;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}

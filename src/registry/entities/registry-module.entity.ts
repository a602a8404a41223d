import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../common/sql/columns';
import { OrganizationEntity } from '../../organizations/entities/organization.entity';
import type { RegistryName } from './registry-provider.entity';

/**
 * One module of an organization's registry for one provider (`name` × `provider`), as the
 * reference service models it: a module published for two providers is two rows, two resources.
 * The namespace of a private module is its organization's name, so it is not stored (the column is
 * empty) and follows an organization rename; a `public` module records a curated public one.
 */
@Entity('registry_modules')
@Index(
  'uq_registry_modules_identity',
  ['organizationId', 'registryName', 'namespace', 'name', 'provider'],
  { unique: true },
)
export class RegistryModuleEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  organizationId: string;

  @ManyToOne(() => OrganizationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'fk_registry_modules_organization' })
  organization?: OrganizationEntity;

  @Column({ type: 'varchar', length: 16 })
  registryName: RegistryName;

  /** The public namespace of a `public` module; empty for `private` ones. */
  @Column({ type: 'varchar', length: 64, default: '' })
  namespace: string;

  @Column({ type: 'varchar', length: 64 })
  name: string;

  @Column({ type: 'varchar', length: 64 })
  provider: string;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}

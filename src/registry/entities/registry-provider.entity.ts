import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../common/sql/columns';
import { OrganizationEntity } from '../../organizations/entities/organization.entity';

export const REGISTRY_NAMES = ['private', 'public'] as const;
export type RegistryName = (typeof REGISTRY_NAMES)[number];

/**
 * A provider an organization publishes (`private`) or curates from the public registry (`public`).
 * The namespace of a private provider is always its organization's name, so it is not stored
 * (the column is empty) and follows an organization rename.
 */
@Entity('registry_providers')
@Index('uq_registry_providers_identity', ['organizationId', 'registryName', 'namespace', 'name'], {
  unique: true,
})
export class RegistryProviderEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  organizationId: string;

  @ManyToOne(() => OrganizationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'fk_registry_providers_organization' })
  organization?: OrganizationEntity;

  @Column({ type: 'varchar', length: 16 })
  registryName: RegistryName;

  /** The public namespace of a `public` provider; empty for `private` ones. */
  @Column({ type: 'varchar', length: 64, default: '' })
  namespace: string;

  @Column({ type: 'varchar', length: 64 })
  name: string;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}

import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { RegistryProviderVersionEntity } from './registry-provider-version.entity';

/** One line of a version's uploaded SHA256SUMS, kept so platform readiness is a database question. */
@Entity('registry_provider_checksums')
export class RegistryProviderChecksumEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  versionId: string;

  @ManyToOne(() => RegistryProviderVersionEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'version_id', foreignKeyConstraintName: 'fk_registry_provider_checksums_version' })
  version?: RegistryProviderVersionEntity;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  filename: string;

  /** Lower-case hex. */
  @Column({ type: 'varchar', length: 64 })
  sha256: string;
}

import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { BoolColumn, TimestampColumn } from '../../common/sql/columns';
import { RegistryProviderVersionEntity } from './registry-provider-version.entity';

@Entity('registry_provider_platforms')
@Index('uq_registry_provider_platforms_os_arch', ['versionId', 'os', 'arch'], { unique: true })
export class RegistryProviderPlatformEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  versionId: string;

  @ManyToOne(() => RegistryProviderVersionEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'version_id', foreignKeyConstraintName: 'fk_registry_provider_platforms_version' })
  version?: RegistryProviderVersionEntity;

  @Column({ type: 'varchar', length: 16 })
  os: string;

  @Column({ type: 'varchar', length: 16 })
  arch: string;

  /** SHA-256 of the binary archive as declared by the publisher; the upload must match it. */
  @Column({ type: 'varchar', length: 128 })
  shasum: string;

  @Column({ type: 'varchar', length: 255 })
  filename: string;

  @BoolColumn()
  providerBinaryUploaded: boolean;

  /** Blob key of the accepted binary; set in the same write that flips `providerBinaryUploaded`. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  binaryBlob: string | null;

  /** Precomputed: the binary is uploaded and SHA256SUMS lists its filename with the same checksum. */
  @BoolColumn()
  ready: boolean;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}

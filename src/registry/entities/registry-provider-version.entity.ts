import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { BoolColumn, TimestampColumn } from '../../common/sql/columns';
import { RegistryProviderEntity } from './registry-provider.entity';

/**
 * `unverified`: the signature was not checked (a file is missing, or no key with the version's
 * key id is stored for the namespace); `valid`/`invalid`: checked against that key.
 */
export type SignatureState = 'unverified' | 'valid' | 'invalid';

const protocolList = {
  to: (value: string[]): string => value.join(','),
  from: (value: string): string[] => (value ? value.split(',') : []),
};

@Entity('registry_provider_versions')
@Index('uq_registry_provider_versions_version', ['providerId', 'version'], { unique: true })
export class RegistryProviderVersionEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  providerId: string;

  @ManyToOne(() => RegistryProviderEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'provider_id', foreignKeyConstraintName: 'fk_registry_provider_versions_provider' })
  provider?: RegistryProviderEntity;

  @Column({ type: 'varchar', length: 64 })
  version: string;

  @Column({ type: 'varchar', length: 64 })
  keyId: string;

  /** Provider protocol versions, stored as a comma list (`5.0,6.0`). */
  @Column({ type: 'varchar', length: 32, transformer: protocolList })
  protocols: string[];

  @BoolColumn()
  shasumsUploaded: boolean;

  @BoolColumn()
  shasumsSigUploaded: boolean;

  /** Blob key of the accepted SHA256SUMS; set in the same write that flips `shasumsUploaded`. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  shasumsBlob: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  shasumsSigBlob: string | null;

  @Column({ type: 'varchar', length: 16, default: 'unverified' })
  signatureState: SignatureState;

  /**
   * Precomputed on every change that can affect it: both files uploaded, signature not invalid,
   * and at least one ready platform. The consumer protocol lists only usable versions.
   */
  @BoolColumn()
  usable: boolean;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}

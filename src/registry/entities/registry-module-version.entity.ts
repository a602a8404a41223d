import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../common/sql/columns';
import { RegistryModuleEntity } from './registry-module.entity';

/**
 * The reference service's names: `pending` until the archive arrives, `reg_ingressing` while it
 * is stored and inspected, then `ok` (served to consumers) or `reg_ingress_failed` (with `error`).
 */
export const MODULE_VERSION_STATUSES = ['pending', 'reg_ingressing', 'ok', 'reg_ingress_failed'] as const;
export type ModuleVersionStatus = (typeof MODULE_VERSION_STATUSES)[number];

@Entity('registry_module_versions')
@Index('uq_registry_module_versions_version', ['moduleId', 'version'], { unique: true })
export class RegistryModuleVersionEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  moduleId: string;

  @ManyToOne(() => RegistryModuleEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'module_id', foreignKeyConstraintName: 'fk_registry_module_versions_module' })
  module?: RegistryModuleEntity;

  @Column({ type: 'varchar', length: 64 })
  version: string;

  @Column({ type: 'varchar', length: 32 })
  status: ModuleVersionStatus;

  /** Why the archive was refused; null unless `reg_ingress_failed`. */
  @Column({ type: 'text', nullable: true })
  error: string | null;

  /** Blob key of the accepted archive; set in the same write that makes the version `ok`. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  archiveBlob: string | null;

  @Column({ type: 'int', nullable: true })
  archiveSize: number | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  archiveSha256: string | null;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}


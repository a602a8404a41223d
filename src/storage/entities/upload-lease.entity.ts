import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../common/sql/columns';

/**
 * An upload in progress somewhere in the installation. The process streaming it renews
 * `expiresAt`; a lease whose expiry has passed belongs to a process that died, and any node may
 * take it over to delete its blob and hand the resource back to its module.
 */
@Entity('upload_leases')
@Index('ix_upload_leases_expires_at', ['expiresAt'])
export class UploadLeaseEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  /** The signed link's purpose: which module's handler gets the resource back. */
  @Column({ type: 'varchar', length: 64 })
  purpose: string;

  @Column({ type: 'varchar', length: 32 })
  resourceId: string;

  /** Where the upload's bytes go; deleted when the lease is swept. */
  @Column({ type: 'varchar', length: 512 })
  blobKey: string;

  /** Random per holder: the uploading request, or the sweep that took the lease over. */
  @Column({ type: 'varchar', length: 32 })
  owner: string;

  @TimestampColumn()
  expiresAt: Date;

  @TimestampColumn()
  createdAt: Date;
}

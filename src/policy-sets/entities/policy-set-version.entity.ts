import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../common/sql/columns';
import { PolicySetEntity } from './policy-set.entity';

export const VERSION_STATUSES = ['pending', 'ingressing', 'ready', 'errored'] as const;
export type PolicySetVersionStatus = (typeof VERSION_STATUSES)[number];

/**
 * Versions created through the API carry this `source`: the real service's marker, which its
 * clients compare against (configuration versions made through the API carry it too).
 */
export const API_SOURCE = 'tfe-api';

@Entity('policy_set_versions')
// Creation times are unique per set (the service makes them strictly increasing), so "newest" is exact.
@Index('uq_policy_set_versions_set_created', ['policySetId', 'createdAt'], { unique: true })
export class PolicySetVersionEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  policySetId: string;

  @ManyToOne(() => PolicySetEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'policy_set_id', foreignKeyConstraintName: 'fk_policy_set_versions_set' })
  policySet?: PolicySetEntity;

  @Column({ type: 'varchar', length: 16 })
  source: string;

  @Column({ type: 'varchar', length: 16 })
  status: PolicySetVersionStatus;

  /** Why the archive was refused; null unless errored. */
  @Column({ type: 'text', nullable: true })
  error: string | null;

  @Column({ type: 'int', nullable: true })
  archiveSize: number | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  archiveSha256: string | null;

  @TimestampColumn({ nullable: true })
  ingressingAt: Date | null;

  @TimestampColumn({ nullable: true })
  readyAt: Date | null;

  @TimestampColumn({ nullable: true })
  erroredAt: Date | null;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}

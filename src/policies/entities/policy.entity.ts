import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../common/sql/columns';
import { OrganizationEntity } from '../../organizations/entities/organization.entity';
import { EnforcementLevel, PolicyKind } from '../policy-kinds';

@Entity('policies')
@Index('uq_policies_org_name', ['organizationId', 'name'], { unique: true })
export class PolicyEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  organizationId: string;

  @ManyToOne(() => OrganizationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'fk_policies_organization' })
  organization?: OrganizationEntity;

  @Column({ type: 'varchar', length: 128 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 16 })
  kind: PolicyKind;

  @Column({ type: 'varchar', length: 16 })
  enforcementLevel: EnforcementLevel;

  /** The framework_b query (e.g. `data.terraform.deny`); null for framework_a policies. */
  @Column({ type: 'varchar', length: 512, nullable: true })
  query: string | null;

  /** Size of the uploaded policy code in the blob store; null until the first upload. */
  @Column({ type: 'int', nullable: true })
  codeSize: number | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  codeSha256: string | null;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}

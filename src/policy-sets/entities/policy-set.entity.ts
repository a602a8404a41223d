import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { BoolColumn, TimestampColumn } from '../../common/sql/columns';
import { OrganizationEntity } from '../../organizations/entities/organization.entity';
import { PolicyKind } from '../../policies/policy-kinds';

@Entity('policy_sets')
@Index('uq_policy_sets_org_name', ['organizationId', 'name'], { unique: true })
export class PolicySetEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  organizationId: string;

  @ManyToOne(() => OrganizationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'fk_policy_sets_organization' })
  organization?: OrganizationEntity;

  @Column({ type: 'varchar', length: 128 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @BoolColumn()
  global: boolean;

  @Column({ type: 'varchar', length: 16 })
  kind: PolicyKind;

  @BoolColumn()
  overridable: boolean;

  @BoolColumn()
  agentEnabled: boolean;

  @Column({ type: 'varchar', length: 64 })
  policyToolVersion: string;

  /** `<namespace>/<repo>` or `<org>/<project>/_git/<repo>`; null when the set has no VCS repository. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  vcsIdentifier: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  vcsBranch: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  vcsOauthTokenId: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  vcsAppInstallationId: string | null;

  @BoolColumn()
  vcsIngressSubmodules: boolean;

  @Column({ type: 'varchar', length: 255, nullable: true })
  policiesPath: string | null;

  /**
   * Set when the first version is created through the API: from then on the set's code comes from
   * uploaded archives and it no longer takes individual policies.
   */
  @BoolColumn()
  uploadVersioned: boolean;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}

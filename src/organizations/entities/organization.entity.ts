import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../common/sql/columns';

/** The wire id of an organization is its name; `id` is an internal key so a rename touches one row. */
@Entity('organizations')
export class OrganizationEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Index('uq_organizations_name', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  name: string;

  @Column({ type: 'varchar', length: 255 })
  email: string;

  @Column({ type: 'varchar', length: 16 })
  edition: 'free' | 'enterprise';

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}

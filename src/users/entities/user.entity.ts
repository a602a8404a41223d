import { Entity, Index, PrimaryColumn, Column } from 'typeorm';
import { BoolColumn, TimestampColumn } from '../../common/sql/columns';

@Entity('users')
export class UserEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Index('uq_users_username', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  username: string;

  @Index('uq_users_email', { unique: true })
  @Column({ type: 'varchar', length: 255 })
  email: string;

  /** `scrypt$<N>$<r>$<p>$<salt>$<hash>` (users/password.ts); `scrypt$<salt>$<hash>` from earlier releases. */
  @Column({ type: 'varchar', length: 255 })
  passwordHash: string;

  @BoolColumn()
  isSiteAdmin: boolean;

  /** A suspended user's tokens stop working and their password is refused; nothing is deleted. */
  @BoolColumn()
  isSuspended: boolean;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}

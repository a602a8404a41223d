import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../common/sql/columns';
import { UserEntity } from '../../users/entities/user.entity';

/**
 * An authorization code of `terraform login`, between the sign-in and the exchange: kept only as
 * the SHA-256 digest of the code, bound to the user who signed in, the client, the redirect URI and
 * the PKCE challenge. The exchange deletes the row (a code works once); expired rows are deleted
 * when new codes are issued.
 */
@Entity('cli_login_codes')
@Index('ix_cli_login_codes_expires', ['expiresAt'])
export class LoginCodeEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  digest: string;

  @Index('ix_cli_login_codes_user')
  @Column({ type: 'varchar', length: 32 })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_cli_login_codes_user' })
  user?: UserEntity;

  @Column({ type: 'varchar', length: 64 })
  clientId: string;

  @Column({ type: 'varchar', length: 64 })
  redirectUri: string;

  /** base64url(SHA-256(verifier)): always 43 characters. */
  @Column({ type: 'varchar', length: 43 })
  codeChallenge: string;

  @TimestampColumn()
  expiresAt: Date;

  @TimestampColumn()
  createdAt: Date;
}

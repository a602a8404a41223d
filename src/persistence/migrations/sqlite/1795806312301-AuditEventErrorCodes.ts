import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Adds the refusal's code to audit events. A column added in place rather than the generated
 * table rebuild: the result is the same table, without copying a trail of millions of events.
 */
export class AuditEventErrorCodes1795806312301 implements MigrationInterface {
  name = 'AuditEventErrorCodes1795806312301';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "audit_events"
            ADD COLUMN "error_code" varchar(64)
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "audit_events" DROP COLUMN "error_code"
        `);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

export class AuditEventErrorCodes1795806385007 implements MigrationInterface {
  name = 'AuditEventErrorCodes1795806385007';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`audit_events\`
            ADD \`error_code\` varchar(64) NULL
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`audit_events\` DROP COLUMN \`error_code\`
        `);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

export class DropLoginLockout1795762365659 implements MigrationInterface {
  name = 'DropLoginLockout1795762365659';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`users\` DROP COLUMN \`failed_login_count\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`users\` DROP COLUMN \`locked_until\`
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`users\`
            ADD \`locked_until\` datetime(3) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`users\`
            ADD \`failed_login_count\` int NOT NULL DEFAULT 0
        `);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

export class CliLoginCodes1795777211010 implements MigrationInterface {
  name = 'CliLoginCodes1795777211010';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`cli_login_codes\` (
                \`digest\` varchar(64) NOT NULL,
                \`user_id\` varchar(32) NOT NULL,
                \`client_id\` varchar(64) NOT NULL,
                \`redirect_uri\` varchar(64) NOT NULL,
                \`code_challenge\` varchar(43) NOT NULL,
                \`expires_at\` datetime(3) NOT NULL,
                \`created_at\` datetime(3) NOT NULL,
                INDEX \`ix_cli_login_codes_user\` (\`user_id\`),
                INDEX \`ix_cli_login_codes_expires\` (\`expires_at\`),
                PRIMARY KEY (\`digest\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            ALTER TABLE \`cli_login_codes\`
            ADD CONSTRAINT \`fk_cli_login_codes_user\` FOREIGN KEY (\`user_id\`) REFERENCES \`users\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`cli_login_codes\` DROP FOREIGN KEY \`fk_cli_login_codes_user\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_cli_login_codes_expires\` ON \`cli_login_codes\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_cli_login_codes_user\` ON \`cli_login_codes\`
        `);
    await queryRunner.query(`
            DROP TABLE \`cli_login_codes\`
        `);
  }
}

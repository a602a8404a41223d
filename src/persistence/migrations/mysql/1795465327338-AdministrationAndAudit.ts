import { MigrationInterface, QueryRunner } from 'typeorm';

export class AdministrationAndAudit1795465327338 implements MigrationInterface {
  name = 'AdministrationAndAudit1795465327338';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`audit_events\` (
                \`id\` varchar(36) NOT NULL,
                \`occurred_at\` datetime(3) NOT NULL,
                \`organization_id\` varchar(32) NULL,
                \`actor_type\` varchar(16) NOT NULL,
                \`actor_id\` varchar(32) NULL,
                \`actor_name\` varchar(64) NULL,
                \`token_id\` varchar(32) NULL,
                \`client_address\` varchar(64) NULL,
                \`request_id\` varchar(64) NULL,
                \`method\` varchar(8) NOT NULL,
                \`route\` varchar(255) NOT NULL,
                \`resource_type\` varchar(64) NOT NULL,
                \`resource_id\` varchar(64) NULL,
                \`action\` varchar(64) NOT NULL,
                \`status\` int NOT NULL,
                \`outcome\` varchar(16) NOT NULL,
                INDEX \`ix_audit_events_organization\` (\`organization_id\`, \`occurred_at\`),
                INDEX \`ix_audit_events_occurred_at\` (\`occurred_at\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            ALTER TABLE \`users\`
            ADD \`is_suspended\` tinyint NOT NULL DEFAULT 0
        `);
    await queryRunner.query(`
            ALTER TABLE \`users\`
            ADD \`failed_login_count\` int NOT NULL DEFAULT '0'
        `);
    await queryRunner.query(`
            ALTER TABLE \`users\`
            ADD \`locked_until\` datetime(3) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`tokens\`
            ADD \`last_used_at\` datetime(3) NULL
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`tokens\` DROP COLUMN \`last_used_at\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`users\` DROP COLUMN \`locked_until\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`users\` DROP COLUMN \`failed_login_count\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`users\` DROP COLUMN \`is_suspended\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_audit_events_occurred_at\` ON \`audit_events\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_audit_events_organization\` ON \`audit_events\`
        `);
    await queryRunner.query(`
            DROP TABLE \`audit_events\`
        `);
  }
}

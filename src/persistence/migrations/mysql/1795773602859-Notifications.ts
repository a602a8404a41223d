import { MigrationInterface, QueryRunner } from 'typeorm';

export class Notifications1795773602859 implements MigrationInterface {
  name = 'Notifications1795773602859';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`notification_configurations\` (
                \`id\` varchar(32) NOT NULL,
                \`workspace_id\` varchar(32) NOT NULL,
                \`name\` varchar(255) NOT NULL,
                \`destination_type\` varchar(32) NOT NULL,
                \`enabled\` tinyint NOT NULL DEFAULT 0,
                \`url\` varchar(2048) NULL,
                \`sealed_token\` text NULL,
                \`triggers\` text NOT NULL,
                \`email_addresses\` text NOT NULL,
                \`email_user_ids\` text NOT NULL,
                \`delivery_responses\` text NOT NULL,
                \`created_at\` datetime(3) NOT NULL,
                \`updated_at\` datetime(3) NOT NULL,
                INDEX \`ix_notification_configurations_workspace\` (\`workspace_id\`, \`created_at\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`notification_deliveries\` (
                \`id\` varchar(32) NOT NULL,
                \`configuration_id\` varchar(32) NOT NULL,
                \`trigger\` varchar(64) NOT NULL,
                \`event\` text NOT NULL,
                \`status\` varchar(16) NOT NULL,
                \`attempts\` int NOT NULL,
                \`due_at\` datetime(3) NOT NULL,
                \`last_error\` text NULL,
                \`created_at\` datetime(3) NOT NULL,
                \`finished_at\` datetime(3) NULL,
                INDEX \`ix_notification_deliveries_configuration\` (\`configuration_id\`),
                INDEX \`ix_notification_deliveries_due\` (\`status\`, \`due_at\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            ALTER TABLE \`notification_configurations\`
            ADD CONSTRAINT \`fk_notification_configurations_workspace\` FOREIGN KEY (\`workspace_id\`) REFERENCES \`workspaces\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`notification_deliveries\`
            ADD CONSTRAINT \`fk_notification_deliveries_configuration\` FOREIGN KEY (\`configuration_id\`) REFERENCES \`notification_configurations\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`notification_deliveries\` DROP FOREIGN KEY \`fk_notification_deliveries_configuration\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`notification_configurations\` DROP FOREIGN KEY \`fk_notification_configurations_workspace\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_notification_deliveries_due\` ON \`notification_deliveries\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_notification_deliveries_configuration\` ON \`notification_deliveries\`
        `);
    await queryRunner.query(`
            DROP TABLE \`notification_deliveries\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_notification_configurations_workspace\` ON \`notification_configurations\`
        `);
    await queryRunner.query(`
            DROP TABLE \`notification_configurations\`
        `);
  }
}

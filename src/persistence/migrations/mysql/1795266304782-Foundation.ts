import { MigrationInterface, QueryRunner } from 'typeorm';

export class Foundation1795266304782 implements MigrationInterface {
  name = 'Foundation1795266304782';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`system_settings\` (
                \`key\` varchar(64) NOT NULL,
                \`value\` text NOT NULL,
                \`updated_at\` datetime(3) NOT NULL,
                PRIMARY KEY (\`key\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`organizations\` (
                \`id\` varchar(32) NOT NULL,
                \`name\` varchar(64) NOT NULL,
                \`email\` varchar(255) NOT NULL,
                \`edition\` varchar(16) NOT NULL,
                \`created_at\` datetime(3) NOT NULL,
                \`updated_at\` datetime(3) NOT NULL,
                UNIQUE INDEX \`uq_organizations_name\` (\`name\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`projects\` (
                \`id\` varchar(32) NOT NULL,
                \`organization_id\` varchar(32) NOT NULL,
                \`name\` varchar(64) NOT NULL,
                \`description\` text NULL,
                \`is_default\` tinyint NOT NULL DEFAULT 0,
                \`created_at\` datetime(3) NOT NULL,
                \`updated_at\` datetime(3) NOT NULL,
                UNIQUE INDEX \`uq_projects_org_name\` (\`organization_id\`, \`name\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`users\` (
                \`id\` varchar(32) NOT NULL,
                \`username\` varchar(64) NOT NULL,
                \`email\` varchar(255) NOT NULL,
                \`password_hash\` varchar(255) NOT NULL,
                \`is_site_admin\` tinyint NOT NULL DEFAULT 0,
                \`created_at\` datetime(3) NOT NULL,
                \`updated_at\` datetime(3) NOT NULL,
                UNIQUE INDEX \`uq_users_username\` (\`username\`),
                UNIQUE INDEX \`uq_users_email\` (\`email\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`teams\` (
                \`id\` varchar(32) NOT NULL,
                \`organization_id\` varchar(32) NOT NULL,
                \`name\` varchar(128) NOT NULL,
                \`is_owners\` tinyint NOT NULL DEFAULT 0,
                \`visibility\` varchar(16) NOT NULL DEFAULT 'secret',
                \`manage_policies\` tinyint NOT NULL DEFAULT 0,
                \`manage_workspaces\` tinyint NOT NULL DEFAULT 0,
                \`manage_projects\` tinyint NOT NULL DEFAULT 0,
                \`manage_providers\` tinyint NOT NULL DEFAULT 0,
                \`read_workspaces\` tinyint NOT NULL DEFAULT 0,
                \`read_projects\` tinyint NOT NULL DEFAULT 0,
                \`created_at\` datetime(3) NOT NULL,
                \`updated_at\` datetime(3) NOT NULL,
                UNIQUE INDEX \`uq_teams_org_name\` (\`organization_id\`, \`name\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`team_memberships\` (
                \`team_id\` varchar(32) NOT NULL,
                \`user_id\` varchar(32) NOT NULL,
                \`created_at\` datetime(3) NOT NULL,
                INDEX \`ix_team_memberships_user\` (\`user_id\`),
                PRIMARY KEY (\`team_id\`, \`user_id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`workspaces\` (
                \`id\` varchar(32) NOT NULL,
                \`organization_id\` varchar(32) NOT NULL,
                \`project_id\` varchar(32) NOT NULL,
                \`name\` varchar(90) NOT NULL,
                \`description\` text NULL,
                \`engine_version\` varchar(64) NOT NULL DEFAULT 'latest',
                \`created_at\` datetime(3) NOT NULL,
                \`updated_at\` datetime(3) NOT NULL,
                INDEX \`ix_workspaces_project\` (\`project_id\`),
                UNIQUE INDEX \`uq_workspaces_org_name\` (\`organization_id\`, \`name\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`team_workspaces\` (
                \`id\` varchar(32) NOT NULL,
                \`team_id\` varchar(32) NOT NULL,
                \`workspace_id\` varchar(32) NOT NULL,
                \`access\` varchar(8) NOT NULL,
                \`created_at\` datetime(3) NOT NULL,
                \`updated_at\` datetime(3) NOT NULL,
                INDEX \`ix_team_workspaces_ws\` (\`workspace_id\`),
                UNIQUE INDEX \`uq_team_workspaces_team_ws\` (\`team_id\`, \`workspace_id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`tokens\` (
                \`id\` varchar(32) NOT NULL,
                \`kind\` varchar(16) NOT NULL,
                \`digest\` varchar(64) NOT NULL,
                \`user_id\` varchar(32) NULL,
                \`team_id\` varchar(32) NULL,
                \`organization_id\` varchar(32) NULL,
                \`description\` varchar(255) NULL,
                \`expires_at\` datetime(3) NULL,
                \`created_at\` datetime(3) NOT NULL,
                UNIQUE INDEX \`uq_tokens_digest\` (\`digest\`),
                INDEX \`ix_tokens_organization\` (\`organization_id\`),
                INDEX \`ix_tokens_team\` (\`team_id\`),
                INDEX \`ix_tokens_user\` (\`user_id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            ALTER TABLE \`projects\`
            ADD CONSTRAINT \`fk_projects_organization\` FOREIGN KEY (\`organization_id\`) REFERENCES \`organizations\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`teams\`
            ADD CONSTRAINT \`fk_teams_organization\` FOREIGN KEY (\`organization_id\`) REFERENCES \`organizations\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`team_memberships\`
            ADD CONSTRAINT \`fk_team_memberships_team\` FOREIGN KEY (\`team_id\`) REFERENCES \`teams\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`team_memberships\`
            ADD CONSTRAINT \`fk_team_memberships_user\` FOREIGN KEY (\`user_id\`) REFERENCES \`users\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`workspaces\`
            ADD CONSTRAINT \`fk_workspaces_organization\` FOREIGN KEY (\`organization_id\`) REFERENCES \`organizations\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`workspaces\`
            ADD CONSTRAINT \`fk_workspaces_project\` FOREIGN KEY (\`project_id\`) REFERENCES \`projects\`(\`id\`) ON DELETE RESTRICT ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`team_workspaces\`
            ADD CONSTRAINT \`fk_team_workspaces_team\` FOREIGN KEY (\`team_id\`) REFERENCES \`teams\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`team_workspaces\`
            ADD CONSTRAINT \`fk_team_workspaces_workspace\` FOREIGN KEY (\`workspace_id\`) REFERENCES \`workspaces\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`tokens\`
            ADD CONSTRAINT \`fk_tokens_user\` FOREIGN KEY (\`user_id\`) REFERENCES \`users\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`tokens\`
            ADD CONSTRAINT \`fk_tokens_team\` FOREIGN KEY (\`team_id\`) REFERENCES \`teams\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`tokens\`
            ADD CONSTRAINT \`fk_tokens_organization\` FOREIGN KEY (\`organization_id\`) REFERENCES \`organizations\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`tokens\` DROP FOREIGN KEY \`fk_tokens_organization\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`tokens\` DROP FOREIGN KEY \`fk_tokens_team\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`tokens\` DROP FOREIGN KEY \`fk_tokens_user\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`team_workspaces\` DROP FOREIGN KEY \`fk_team_workspaces_workspace\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`team_workspaces\` DROP FOREIGN KEY \`fk_team_workspaces_team\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`workspaces\` DROP FOREIGN KEY \`fk_workspaces_project\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`workspaces\` DROP FOREIGN KEY \`fk_workspaces_organization\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`team_memberships\` DROP FOREIGN KEY \`fk_team_memberships_user\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`team_memberships\` DROP FOREIGN KEY \`fk_team_memberships_team\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`teams\` DROP FOREIGN KEY \`fk_teams_organization\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`projects\` DROP FOREIGN KEY \`fk_projects_organization\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_tokens_user\` ON \`tokens\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_tokens_team\` ON \`tokens\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_tokens_organization\` ON \`tokens\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_tokens_digest\` ON \`tokens\`
        `);
    await queryRunner.query(`
            DROP TABLE \`tokens\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_team_workspaces_team_ws\` ON \`team_workspaces\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_team_workspaces_ws\` ON \`team_workspaces\`
        `);
    await queryRunner.query(`
            DROP TABLE \`team_workspaces\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_workspaces_org_name\` ON \`workspaces\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_workspaces_project\` ON \`workspaces\`
        `);
    await queryRunner.query(`
            DROP TABLE \`workspaces\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_team_memberships_user\` ON \`team_memberships\`
        `);
    await queryRunner.query(`
            DROP TABLE \`team_memberships\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_teams_org_name\` ON \`teams\`
        `);
    await queryRunner.query(`
            DROP TABLE \`teams\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_users_email\` ON \`users\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_users_username\` ON \`users\`
        `);
    await queryRunner.query(`
            DROP TABLE \`users\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_projects_org_name\` ON \`projects\`
        `);
    await queryRunner.query(`
            DROP TABLE \`projects\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_organizations_name\` ON \`organizations\`
        `);
    await queryRunner.query(`
            DROP TABLE \`organizations\`
        `);
    await queryRunner.query(`
            DROP TABLE \`system_settings\`
        `);
  }
}

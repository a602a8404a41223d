import { MigrationInterface, QueryRunner } from 'typeorm';

export class PolicySets1795267256310 implements MigrationInterface {
  name = 'PolicySets1795267256310';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`policies\` (
                \`id\` varchar(32) NOT NULL,
                \`organization_id\` varchar(32) NOT NULL,
                \`name\` varchar(128) NOT NULL,
                \`description\` text NULL,
                \`kind\` varchar(16) NOT NULL,
                \`enforcement_level\` varchar(16) NOT NULL,
                \`query\` varchar(512) NULL,
                \`code_size\` int NULL,
                \`code_sha256\` varchar(64) NULL,
                \`created_at\` datetime(3) NOT NULL,
                \`updated_at\` datetime(3) NOT NULL,
                UNIQUE INDEX \`uq_policies_org_name\` (\`organization_id\`, \`name\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`policy_sets\` (
                \`id\` varchar(32) NOT NULL,
                \`organization_id\` varchar(32) NOT NULL,
                \`name\` varchar(128) NOT NULL,
                \`description\` text NULL,
                \`global\` tinyint NOT NULL DEFAULT 0,
                \`kind\` varchar(16) NOT NULL,
                \`overridable\` tinyint NOT NULL DEFAULT 0,
                \`agent_enabled\` tinyint NOT NULL DEFAULT 0,
                \`policy_tool_version\` varchar(64) NOT NULL,
                \`vcs_identifier\` varchar(255) NULL,
                \`vcs_branch\` varchar(255) NULL,
                \`vcs_oauth_token_id\` varchar(64) NULL,
                \`vcs_app_installation_id\` varchar(64) NULL,
                \`vcs_ingress_submodules\` tinyint NOT NULL DEFAULT 0,
                \`policies_path\` varchar(255) NULL,
                \`upload_versioned\` tinyint NOT NULL DEFAULT 0,
                \`created_at\` datetime(3) NOT NULL,
                \`updated_at\` datetime(3) NOT NULL,
                UNIQUE INDEX \`uq_policy_sets_org_name\` (\`organization_id\`, \`name\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`policy_set_policies\` (
                \`policy_set_id\` varchar(32) NOT NULL,
                \`policy_id\` varchar(32) NOT NULL,
                \`created_at\` datetime(3) NOT NULL,
                INDEX \`ix_policy_set_policies_policy\` (\`policy_id\`),
                PRIMARY KEY (\`policy_set_id\`, \`policy_id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`policy_set_projects\` (
                \`policy_set_id\` varchar(32) NOT NULL,
                \`project_id\` varchar(32) NOT NULL,
                \`created_at\` datetime(3) NOT NULL,
                INDEX \`ix_policy_set_projects_project\` (\`project_id\`),
                PRIMARY KEY (\`policy_set_id\`, \`project_id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`policy_set_versions\` (
                \`id\` varchar(32) NOT NULL,
                \`policy_set_id\` varchar(32) NOT NULL,
                \`source\` varchar(16) NOT NULL,
                \`status\` varchar(16) NOT NULL,
                \`error\` text NULL,
                \`archive_size\` int NULL,
                \`archive_sha256\` varchar(64) NULL,
                \`ingressing_at\` datetime(3) NULL,
                \`ready_at\` datetime(3) NULL,
                \`errored_at\` datetime(3) NULL,
                \`created_at\` datetime(3) NOT NULL,
                \`updated_at\` datetime(3) NOT NULL,
                UNIQUE INDEX \`uq_policy_set_versions_set_created\` (\`policy_set_id\`, \`created_at\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`policy_set_workspace_exclusions\` (
                \`policy_set_id\` varchar(32) NOT NULL,
                \`workspace_id\` varchar(32) NOT NULL,
                \`created_at\` datetime(3) NOT NULL,
                INDEX \`ix_policy_set_workspace_exclusions_workspace\` (\`workspace_id\`),
                PRIMARY KEY (\`policy_set_id\`, \`workspace_id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`policy_set_workspaces\` (
                \`policy_set_id\` varchar(32) NOT NULL,
                \`workspace_id\` varchar(32) NOT NULL,
                \`created_at\` datetime(3) NOT NULL,
                INDEX \`ix_policy_set_workspaces_workspace\` (\`workspace_id\`),
                PRIMARY KEY (\`policy_set_id\`, \`workspace_id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            ALTER TABLE \`policies\`
            ADD CONSTRAINT \`fk_policies_organization\` FOREIGN KEY (\`organization_id\`) REFERENCES \`organizations\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`policy_sets\`
            ADD CONSTRAINT \`fk_policy_sets_organization\` FOREIGN KEY (\`organization_id\`) REFERENCES \`organizations\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`policy_set_policies\`
            ADD CONSTRAINT \`fk_policy_set_policies_set\` FOREIGN KEY (\`policy_set_id\`) REFERENCES \`policy_sets\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`policy_set_policies\`
            ADD CONSTRAINT \`fk_policy_set_policies_policy\` FOREIGN KEY (\`policy_id\`) REFERENCES \`policies\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`policy_set_projects\`
            ADD CONSTRAINT \`fk_policy_set_projects_set\` FOREIGN KEY (\`policy_set_id\`) REFERENCES \`policy_sets\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`policy_set_projects\`
            ADD CONSTRAINT \`fk_policy_set_projects_project\` FOREIGN KEY (\`project_id\`) REFERENCES \`projects\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`policy_set_versions\`
            ADD CONSTRAINT \`fk_policy_set_versions_set\` FOREIGN KEY (\`policy_set_id\`) REFERENCES \`policy_sets\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`policy_set_workspace_exclusions\`
            ADD CONSTRAINT \`fk_policy_set_workspace_exclusions_set\` FOREIGN KEY (\`policy_set_id\`) REFERENCES \`policy_sets\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`policy_set_workspace_exclusions\`
            ADD CONSTRAINT \`fk_policy_set_workspace_exclusions_workspace\` FOREIGN KEY (\`workspace_id\`) REFERENCES \`workspaces\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`policy_set_workspaces\`
            ADD CONSTRAINT \`fk_policy_set_workspaces_set\` FOREIGN KEY (\`policy_set_id\`) REFERENCES \`policy_sets\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`policy_set_workspaces\`
            ADD CONSTRAINT \`fk_policy_set_workspaces_workspace\` FOREIGN KEY (\`workspace_id\`) REFERENCES \`workspaces\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`policy_set_workspaces\` DROP FOREIGN KEY \`fk_policy_set_workspaces_workspace\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`policy_set_workspaces\` DROP FOREIGN KEY \`fk_policy_set_workspaces_set\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`policy_set_workspace_exclusions\` DROP FOREIGN KEY \`fk_policy_set_workspace_exclusions_workspace\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`policy_set_workspace_exclusions\` DROP FOREIGN KEY \`fk_policy_set_workspace_exclusions_set\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`policy_set_versions\` DROP FOREIGN KEY \`fk_policy_set_versions_set\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`policy_set_projects\` DROP FOREIGN KEY \`fk_policy_set_projects_project\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`policy_set_projects\` DROP FOREIGN KEY \`fk_policy_set_projects_set\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`policy_set_policies\` DROP FOREIGN KEY \`fk_policy_set_policies_policy\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`policy_set_policies\` DROP FOREIGN KEY \`fk_policy_set_policies_set\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`policy_sets\` DROP FOREIGN KEY \`fk_policy_sets_organization\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`policies\` DROP FOREIGN KEY \`fk_policies_organization\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_policy_set_workspaces_workspace\` ON \`policy_set_workspaces\`
        `);
    await queryRunner.query(`
            DROP TABLE \`policy_set_workspaces\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_policy_set_workspace_exclusions_workspace\` ON \`policy_set_workspace_exclusions\`
        `);
    await queryRunner.query(`
            DROP TABLE \`policy_set_workspace_exclusions\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_policy_set_versions_set_created\` ON \`policy_set_versions\`
        `);
    await queryRunner.query(`
            DROP TABLE \`policy_set_versions\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_policy_set_projects_project\` ON \`policy_set_projects\`
        `);
    await queryRunner.query(`
            DROP TABLE \`policy_set_projects\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_policy_set_policies_policy\` ON \`policy_set_policies\`
        `);
    await queryRunner.query(`
            DROP TABLE \`policy_set_policies\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_policy_sets_org_name\` ON \`policy_sets\`
        `);
    await queryRunner.query(`
            DROP TABLE \`policy_sets\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_policies_org_name\` ON \`policies\`
        `);
    await queryRunner.query(`
            DROP TABLE \`policies\`
        `);
  }
}

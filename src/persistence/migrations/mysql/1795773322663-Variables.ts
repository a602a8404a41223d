import { MigrationInterface, QueryRunner } from 'typeorm';

export class Variables1795773322663 implements MigrationInterface {
  name = 'Variables1795773322663';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`varsets\` (
                \`id\` varchar(32) NOT NULL,
                \`organization_id\` varchar(32) NOT NULL,
                \`project_id\` varchar(32) NULL,
                \`name\` varchar(128) NOT NULL,
                \`description\` varchar(512) NOT NULL,
                \`global\` tinyint NOT NULL DEFAULT 0,
                \`priority\` tinyint NOT NULL DEFAULT 0,
                \`created_at\` datetime(3) NOT NULL,
                \`updated_at\` datetime(3) NOT NULL,
                UNIQUE INDEX \`uq_varsets_org_name\` (\`organization_id\`, \`name\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`varset_workspaces\` (
                \`varset_id\` varchar(32) NOT NULL,
                \`workspace_id\` varchar(32) NOT NULL,
                INDEX \`ix_varset_workspaces_workspace\` (\`workspace_id\`),
                PRIMARY KEY (\`varset_id\`, \`workspace_id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`varset_projects\` (
                \`varset_id\` varchar(32) NOT NULL,
                \`project_id\` varchar(32) NOT NULL,
                INDEX \`ix_varset_projects_project\` (\`project_id\`),
                PRIMARY KEY (\`varset_id\`, \`project_id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`variables\` (
                \`id\` varchar(32) NOT NULL,
                \`workspace_id\` varchar(32) NULL,
                \`varset_id\` varchar(32) NULL,
                \`key\` varchar(128) NOT NULL,
                \`key_digest\` varchar(64) NOT NULL,
                \`category\` varchar(16) NOT NULL,
                \`value\` json NULL,
                \`sealed_value\` json NULL,
                \`description\` varchar(512) NOT NULL,
                \`hcl\` tinyint NOT NULL DEFAULT 0,
                \`sensitive\` tinyint NOT NULL DEFAULT 0,
                \`version_id\` varchar(64) NOT NULL,
                \`created_at\` datetime(3) NOT NULL,
                \`updated_at\` datetime(3) NOT NULL,
                UNIQUE INDEX \`uq_variables_varset_key\` (\`varset_id\`, \`category\`, \`key_digest\`),
                UNIQUE INDEX \`uq_variables_workspace_key\` (\`workspace_id\`, \`category\`, \`key_digest\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            ALTER TABLE \`teams\`
            ADD \`manage_variable_sets\` tinyint NOT NULL DEFAULT 0
        `);
    await queryRunner.query(`
            ALTER TABLE \`varsets\`
            ADD CONSTRAINT \`fk_varsets_organization\` FOREIGN KEY (\`organization_id\`) REFERENCES \`organizations\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`varsets\`
            ADD CONSTRAINT \`fk_varsets_project\` FOREIGN KEY (\`project_id\`) REFERENCES \`projects\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`varset_workspaces\`
            ADD CONSTRAINT \`fk_varset_workspaces_varset\` FOREIGN KEY (\`varset_id\`) REFERENCES \`varsets\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`varset_workspaces\`
            ADD CONSTRAINT \`fk_varset_workspaces_workspace\` FOREIGN KEY (\`workspace_id\`) REFERENCES \`workspaces\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`varset_projects\`
            ADD CONSTRAINT \`fk_varset_projects_varset\` FOREIGN KEY (\`varset_id\`) REFERENCES \`varsets\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`varset_projects\`
            ADD CONSTRAINT \`fk_varset_projects_project\` FOREIGN KEY (\`project_id\`) REFERENCES \`projects\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`variables\`
            ADD CONSTRAINT \`fk_variables_workspace\` FOREIGN KEY (\`workspace_id\`) REFERENCES \`workspaces\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`variables\`
            ADD CONSTRAINT \`fk_variables_varset\` FOREIGN KEY (\`varset_id\`) REFERENCES \`varsets\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`variables\` DROP FOREIGN KEY \`fk_variables_varset\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`variables\` DROP FOREIGN KEY \`fk_variables_workspace\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`varset_projects\` DROP FOREIGN KEY \`fk_varset_projects_project\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`varset_projects\` DROP FOREIGN KEY \`fk_varset_projects_varset\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`varset_workspaces\` DROP FOREIGN KEY \`fk_varset_workspaces_workspace\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`varset_workspaces\` DROP FOREIGN KEY \`fk_varset_workspaces_varset\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`varsets\` DROP FOREIGN KEY \`fk_varsets_project\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`varsets\` DROP FOREIGN KEY \`fk_varsets_organization\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`teams\` DROP COLUMN \`manage_variable_sets\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_variables_workspace_key\` ON \`variables\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_variables_varset_key\` ON \`variables\`
        `);
    await queryRunner.query(`
            DROP TABLE \`variables\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_varset_projects_project\` ON \`varset_projects\`
        `);
    await queryRunner.query(`
            DROP TABLE \`varset_projects\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_varset_workspaces_workspace\` ON \`varset_workspaces\`
        `);
    await queryRunner.query(`
            DROP TABLE \`varset_workspaces\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_varsets_org_name\` ON \`varsets\`
        `);
    await queryRunner.query(`
            DROP TABLE \`varsets\`
        `);
  }
}

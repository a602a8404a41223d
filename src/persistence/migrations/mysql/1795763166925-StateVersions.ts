import { MigrationInterface, QueryRunner } from 'typeorm';

export class StateVersions1795763166925 implements MigrationInterface {
  name = 'StateVersions1795763166925';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`state_versions\` (
                \`id\` varchar(32) NOT NULL,
                \`workspace_id\` varchar(32) NOT NULL,
                \`status\` varchar(16) NOT NULL,
                \`serial\` bigint NOT NULL,
                \`lineage\` varchar(128) NULL,
                \`md5\` varchar(32) NOT NULL,
                \`run_id\` varchar(32) NULL,
                \`created_by_id\` varchar(32) NULL,
                \`rollback_of_id\` varchar(32) NULL,
                \`state_blob_key\` varchar(255) NULL,
                \`state_data_key\` varchar(255) NULL,
                \`size\` int NULL,
                \`json_state_blob_key\` varchar(255) NULL,
                \`json_state_data_key\` varchar(255) NULL,
                \`json_state_size\` int NULL,
                \`state_format\` int NULL,
                \`terraform_version\` varchar(64) NULL,
                \`resources\` json NULL,
                \`modules\` json NULL,
                \`providers\` json NULL,
                \`resource_count\` int NOT NULL DEFAULT '0',
                \`resources_processed\` tinyint NOT NULL DEFAULT 0,
                \`created_at\` datetime(3) NOT NULL,
                \`updated_at\` datetime(3) NOT NULL,
                INDEX \`ix_state_versions_workspace_status\` (\`workspace_id\`, \`status\`),
                INDEX \`ix_state_versions_workspace_created\` (\`workspace_id\`, \`created_at\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`state_version_outputs\` (
                \`id\` varchar(32) NOT NULL,
                \`state_version_id\` varchar(32) NOT NULL,
                \`name\` varchar(255) NOT NULL,
                \`sensitive\` tinyint NOT NULL DEFAULT 0,
                \`type\` varchar(16) NOT NULL,
                \`detailed_type\` json NOT NULL,
                \`sealed_value\` json NOT NULL,
                INDEX \`ix_state_version_outputs_version_name\` (\`state_version_id\`, \`name\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            ALTER TABLE \`workspaces\`
            ADD \`current_state_version_id\` varchar(32) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`workspaces\`
            ADD \`resource_count\` int NOT NULL DEFAULT '0'
        `);
    await queryRunner.query(`
            ALTER TABLE \`state_versions\`
            ADD CONSTRAINT \`fk_state_versions_workspace\` FOREIGN KEY (\`workspace_id\`) REFERENCES \`workspaces\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`state_versions\`
            ADD CONSTRAINT \`fk_state_versions_run\` FOREIGN KEY (\`run_id\`) REFERENCES \`runs\`(\`id\`) ON DELETE
            SET NULL ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`state_version_outputs\`
            ADD CONSTRAINT \`fk_state_version_outputs_version\` FOREIGN KEY (\`state_version_id\`) REFERENCES \`state_versions\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`state_version_outputs\` DROP FOREIGN KEY \`fk_state_version_outputs_version\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`state_versions\` DROP FOREIGN KEY \`fk_state_versions_run\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`state_versions\` DROP FOREIGN KEY \`fk_state_versions_workspace\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`workspaces\` DROP COLUMN \`resource_count\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`workspaces\` DROP COLUMN \`current_state_version_id\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_state_version_outputs_version_name\` ON \`state_version_outputs\`
        `);
    await queryRunner.query(`
            DROP TABLE \`state_version_outputs\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_state_versions_workspace_created\` ON \`state_versions\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_state_versions_workspace_status\` ON \`state_versions\`
        `);
    await queryRunner.query(`
            DROP TABLE \`state_versions\`
        `);
  }
}

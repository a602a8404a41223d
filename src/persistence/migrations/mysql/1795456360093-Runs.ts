import { MigrationInterface, QueryRunner } from 'typeorm';

export class Runs1795456360093 implements MigrationInterface {
  name = 'Runs1795456360093';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`configuration_versions\` (
                \`id\` varchar(32) NOT NULL,
                \`workspace_id\` varchar(32) NOT NULL,
                \`status\` varchar(16) NOT NULL,
                \`auto_queue_runs\` tinyint NOT NULL DEFAULT 0,
                \`speculative\` tinyint NOT NULL DEFAULT 0,
                \`error_message\` text NULL,
                \`created_by_id\` varchar(32) NULL,
                \`archive_key\` varchar(200) NULL,
                \`archive_size\` int NULL,
                \`uploaded_at\` datetime(3) NULL,
                \`errored_at\` datetime(3) NULL,
                \`created_at\` datetime(3) NOT NULL,
                \`updated_at\` datetime(3) NOT NULL,
                UNIQUE INDEX \`uq_configuration_versions_workspace_created\` (\`workspace_id\`, \`created_at\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`runs\` (
                \`id\` varchar(32) NOT NULL,
                \`workspace_id\` varchar(32) NOT NULL,
                \`configuration_version_id\` varchar(32) NOT NULL,
                \`status\` varchar(32) NOT NULL,
                \`status_timestamps\` text NOT NULL,
                \`message\` text NOT NULL,
                \`is_destroy\` tinyint NOT NULL DEFAULT 0,
                \`plan_only\` tinyint NOT NULL DEFAULT 0,
                \`auto_apply\` tinyint NOT NULL DEFAULT 0,
                \`source\` varchar(32) NOT NULL,
                \`trigger_reason\` varchar(255) NOT NULL,
                \`created_by_id\` varchar(32) NULL,
                \`triggering_run_id\` varchar(32) NULL,
                \`plan_id\` varchar(32) NOT NULL,
                \`apply_id\` varchar(32) NOT NULL,
                \`has_changes\` tinyint NOT NULL DEFAULT 0,
                \`error_message\` text NULL,
                \`canceled_at\` datetime(3) NULL,
                \`force_cancel_available_at\` datetime(3) NULL,
                \`created_at\` datetime(3) NOT NULL,
                \`updated_at\` datetime(3) NOT NULL,
                INDEX \`ix_runs_workspace_status\` (\`workspace_id\`, \`status\`),
                INDEX \`ix_runs_workspace_created\` (\`workspace_id\`, \`created_at\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`run_phases\` (
                \`id\` varchar(32) NOT NULL,
                \`run_id\` varchar(32) NOT NULL,
                \`kind\` varchar(8) NOT NULL,
                \`status\` varchar(16) NOT NULL,
                \`status_timestamps\` text NOT NULL,
                \`has_changes\` tinyint NULL,
                \`resource_additions\` int NOT NULL DEFAULT '0',
                \`resource_changes\` int NOT NULL DEFAULT '0',
                \`resource_destructions\` int NOT NULL DEFAULT '0',
                \`resource_imports\` int NOT NULL DEFAULT '0',
                \`agent_id\` varchar(32) NULL,
                \`agent_pool_id\` varchar(32) NULL,
                \`error_message\` text NULL,
                \`created_at\` datetime(3) NOT NULL,
                \`updated_at\` datetime(3) NOT NULL,
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`run_jobs\` (
                \`id\` varchar(32) NOT NULL,
                \`phase_id\` varchar(32) NOT NULL,
                \`run_id\` varchar(32) NOT NULL,
                \`kind\` varchar(8) NOT NULL,
                \`status\` varchar(16) NOT NULL,
                \`organization_id\` varchar(32) NOT NULL,
                \`agent_pool_id\` varchar(32) NULL,
                \`agent_id\` varchar(32) NULL,
                \`claimed_at\` datetime(3) NULL,
                \`heartbeat_at\` datetime(3) NULL,
                \`report\` text NULL,
                \`finished_at\` datetime(3) NULL,
                \`created_at\` datetime(3) NOT NULL,
                INDEX \`ix_run_jobs_heartbeat\` (\`status\`, \`heartbeat_at\`),
                INDEX \`ix_run_jobs_claimable\` (
                    \`status\`,
                    \`agent_pool_id\`,
                    \`organization_id\`,
                    \`created_at\`
                ),
                UNIQUE INDEX \`uq_run_jobs_phase\` (\`phase_id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`run_trigger_outcomes\` (
                \`id\` varchar(32) NOT NULL,
                \`run_trigger_id\` varchar(32) NOT NULL,
                \`source_run_id\` varchar(32) NOT NULL,
                \`workspace_id\` varchar(32) NOT NULL,
                \`run_id\` varchar(32) NULL,
                \`reason\` text NULL,
                \`created_at\` datetime(3) NOT NULL,
                UNIQUE INDEX \`uq_run_trigger_outcomes_trigger_source\` (\`run_trigger_id\`, \`source_run_id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            ALTER TABLE \`workspaces\`
            ADD \`locked\` tinyint NOT NULL DEFAULT 0
        `);
    await queryRunner.query(`
            ALTER TABLE \`workspaces\`
            ADD \`locked_by_type\` varchar(16) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`workspaces\`
            ADD \`locked_by_id\` varchar(90) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`configuration_versions\`
            ADD CONSTRAINT \`fk_configuration_versions_workspace\` FOREIGN KEY (\`workspace_id\`) REFERENCES \`workspaces\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`runs\`
            ADD CONSTRAINT \`fk_runs_workspace\` FOREIGN KEY (\`workspace_id\`) REFERENCES \`workspaces\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`run_phases\`
            ADD CONSTRAINT \`fk_run_phases_run\` FOREIGN KEY (\`run_id\`) REFERENCES \`runs\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`run_jobs\`
            ADD CONSTRAINT \`fk_run_jobs_phase\` FOREIGN KEY (\`phase_id\`) REFERENCES \`run_phases\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`run_trigger_outcomes\`
            ADD CONSTRAINT \`fk_run_trigger_outcomes_source_run\` FOREIGN KEY (\`source_run_id\`) REFERENCES \`runs\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`run_trigger_outcomes\` DROP FOREIGN KEY \`fk_run_trigger_outcomes_source_run\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`run_jobs\` DROP FOREIGN KEY \`fk_run_jobs_phase\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`run_phases\` DROP FOREIGN KEY \`fk_run_phases_run\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`runs\` DROP FOREIGN KEY \`fk_runs_workspace\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`configuration_versions\` DROP FOREIGN KEY \`fk_configuration_versions_workspace\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`workspaces\` DROP COLUMN \`locked_by_id\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`workspaces\` DROP COLUMN \`locked_by_type\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`workspaces\` DROP COLUMN \`locked\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_run_trigger_outcomes_trigger_source\` ON \`run_trigger_outcomes\`
        `);
    await queryRunner.query(`
            DROP TABLE \`run_trigger_outcomes\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_run_jobs_phase\` ON \`run_jobs\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_run_jobs_claimable\` ON \`run_jobs\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_run_jobs_heartbeat\` ON \`run_jobs\`
        `);
    await queryRunner.query(`
            DROP TABLE \`run_jobs\`
        `);
    await queryRunner.query(`
            DROP TABLE \`run_phases\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_runs_workspace_created\` ON \`runs\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_runs_workspace_status\` ON \`runs\`
        `);
    await queryRunner.query(`
            DROP TABLE \`runs\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_configuration_versions_workspace_created\` ON \`configuration_versions\`
        `);
    await queryRunner.query(`
            DROP TABLE \`configuration_versions\`
        `);
  }
}

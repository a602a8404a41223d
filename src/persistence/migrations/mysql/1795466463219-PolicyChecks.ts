import { MigrationInterface, QueryRunner } from 'typeorm';

export class PolicyChecks1795466463219 implements MigrationInterface {
  name = 'PolicyChecks1795466463219';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`policy_checks\` (
                \`id\` varchar(32) NOT NULL,
                \`run_id\` varchar(32) NOT NULL,
                \`organization_id\` varchar(32) NOT NULL,
                \`workspace_id\` varchar(32) NOT NULL,
                \`status\` varchar(16) NOT NULL,
                \`status_timestamps\` text NOT NULL,
                \`passed\` int NOT NULL DEFAULT '0',
                \`advisory_failed\` int NOT NULL DEFAULT '0',
                \`soft_failed\` int NOT NULL DEFAULT '0',
                \`hard_failed\` int NOT NULL DEFAULT '0',
                \`plan_only\` tinyint NOT NULL DEFAULT 0,
                \`overridden_by_type\` varchar(16) NULL,
                \`overridden_by_id\` varchar(32) NULL,
                \`overridden_at\` datetime(3) NULL,
                \`error_message\` text NULL,
                \`finished_at\` datetime(3) NULL,
                \`created_at\` datetime(3) NOT NULL,
                \`updated_at\` datetime(3) NOT NULL,
                UNIQUE INDEX \`uq_policy_checks_run\` (\`run_id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`policy_evaluations\` (
                \`id\` varchar(32) NOT NULL,
                \`policy_check_id\` varchar(32) NOT NULL,
                \`position\` int NOT NULL,
                \`outcome_id\` varchar(32) NOT NULL,
                \`policy_set_id\` varchar(32) NOT NULL,
                \`policy_set_name\` varchar(128) NOT NULL,
                \`policy_set_description\` text NULL,
                \`policy_kind\` varchar(16) NOT NULL,
                \`policy_tool_version\` varchar(64) NOT NULL,
                \`overridable\` tinyint NOT NULL DEFAULT 0,
                \`policy_set_version_id\` varchar(32) NULL,
                \`bundle_key\` varchar(255) NULL,
                \`status\` varchar(16) NOT NULL,
                \`status_timestamps\` text NOT NULL,
                \`error\` text NULL,
                \`passed\` int NOT NULL DEFAULT '0',
                \`advisory_failed\` int NOT NULL DEFAULT '0',
                \`soft_failed\` int NOT NULL DEFAULT '0',
                \`hard_failed\` int NOT NULL DEFAULT '0',
                \`created_at\` datetime(3) NOT NULL,
                \`updated_at\` datetime(3) NOT NULL,
                UNIQUE INDEX \`uq_policy_evaluations_outcome\` (\`outcome_id\`),
                INDEX \`ix_policy_evaluations_check\` (\`policy_check_id\`, \`position\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`policy_outcomes\` (
                \`id\` varchar(32) NOT NULL,
                \`evaluation_id\` varchar(32) NOT NULL,
                \`position\` int NOT NULL,
                \`policy_name\` varchar(128) NOT NULL,
                \`description\` text NULL,
                \`enforcement_level\` varchar(32) NOT NULL,
                \`query\` varchar(512) NULL,
                \`code_key\` varchar(255) NULL,
                \`status\` varchar(16) NOT NULL,
                \`output\` text NULL,
                INDEX \`ix_policy_outcomes_evaluation\` (\`evaluation_id\`, \`position\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            ALTER TABLE \`run_jobs\`
            ADD \`evaluation_id\` varchar(32) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`teams\`
            ADD \`manage_policy_overrides\` tinyint NOT NULL DEFAULT 0
        `);
    await queryRunner.query(`
            ALTER TABLE \`run_jobs\` DROP FOREIGN KEY \`fk_run_jobs_phase\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`run_jobs\` CHANGE \`phase_id\` \`phase_id\` varchar(32) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`run_jobs\` MODIFY \`kind\` varchar(24) NOT NULL
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX \`uq_run_jobs_evaluation\` ON \`run_jobs\` (\`evaluation_id\`)
        `);
    await queryRunner.query(`
            ALTER TABLE \`policy_checks\`
            ADD CONSTRAINT \`fk_policy_checks_run\` FOREIGN KEY (\`run_id\`) REFERENCES \`runs\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`policy_evaluations\`
            ADD CONSTRAINT \`fk_policy_evaluations_check\` FOREIGN KEY (\`policy_check_id\`) REFERENCES \`policy_checks\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`policy_outcomes\`
            ADD CONSTRAINT \`fk_policy_outcomes_evaluation\` FOREIGN KEY (\`evaluation_id\`) REFERENCES \`policy_evaluations\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`run_jobs\`
            ADD CONSTRAINT \`fk_run_jobs_phase\` FOREIGN KEY (\`phase_id\`) REFERENCES \`run_phases\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`run_jobs\`
            ADD CONSTRAINT \`fk_run_jobs_run\` FOREIGN KEY (\`run_id\`) REFERENCES \`runs\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`run_jobs\` DROP FOREIGN KEY \`fk_run_jobs_run\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`run_jobs\` DROP FOREIGN KEY \`fk_run_jobs_phase\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`policy_outcomes\` DROP FOREIGN KEY \`fk_policy_outcomes_evaluation\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`policy_evaluations\` DROP FOREIGN KEY \`fk_policy_evaluations_check\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`policy_checks\` DROP FOREIGN KEY \`fk_policy_checks_run\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_run_jobs_evaluation\` ON \`run_jobs\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`run_jobs\` MODIFY \`kind\` varchar(8) NOT NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`run_jobs\` CHANGE \`phase_id\` \`phase_id\` varchar(32) NOT NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`run_jobs\`
            ADD CONSTRAINT \`fk_run_jobs_phase\` FOREIGN KEY (\`phase_id\`) REFERENCES \`run_phases\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`teams\` DROP COLUMN \`manage_policy_overrides\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`run_jobs\` DROP COLUMN \`evaluation_id\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_policy_outcomes_evaluation\` ON \`policy_outcomes\`
        `);
    await queryRunner.query(`
            DROP TABLE \`policy_outcomes\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_policy_evaluations_check\` ON \`policy_evaluations\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_policy_evaluations_outcome\` ON \`policy_evaluations\`
        `);
    await queryRunner.query(`
            DROP TABLE \`policy_evaluations\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_policy_checks_run\` ON \`policy_checks\`
        `);
    await queryRunner.query(`
            DROP TABLE \`policy_checks\`
        `);
  }
}

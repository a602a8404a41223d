import { MigrationInterface, QueryRunner } from 'typeorm';

export class RunLogs1795775966025 implements MigrationInterface {
  name = 'RunLogs1795775966025';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`run_log_chunks\` (
                \`phase_id\` varchar(32) NOT NULL,
                \`first_byte\` bigint NOT NULL,
                \`end_byte\` bigint NOT NULL,
                \`data\` blob NOT NULL,
                PRIMARY KEY (\`phase_id\`, \`first_byte\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`run_logs\` (
                \`phase_id\` varchar(32) NOT NULL,
                \`size\` bigint NOT NULL,
                \`dropped\` bigint NOT NULL,
                \`archived\` tinyint NOT NULL DEFAULT 0,
                \`updated_at\` datetime(3) NOT NULL,
                INDEX \`ix_run_logs_archived\` (\`archived\`, \`updated_at\`),
                PRIMARY KEY (\`phase_id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            ALTER TABLE \`run_log_chunks\`
            ADD CONSTRAINT \`fk_run_log_chunks_phase\` FOREIGN KEY (\`phase_id\`) REFERENCES \`run_phases\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`run_logs\`
            ADD CONSTRAINT \`fk_run_logs_phase\` FOREIGN KEY (\`phase_id\`) REFERENCES \`run_phases\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`run_logs\` DROP FOREIGN KEY \`fk_run_logs_phase\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`run_log_chunks\` DROP FOREIGN KEY \`fk_run_log_chunks_phase\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_run_logs_archived\` ON \`run_logs\`
        `);
    await queryRunner.query(`
            DROP TABLE \`run_logs\`
        `);
    await queryRunner.query(`
            DROP TABLE \`run_log_chunks\`
        `);
  }
}

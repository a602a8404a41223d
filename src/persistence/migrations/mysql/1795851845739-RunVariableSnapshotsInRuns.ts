import { MigrationInterface, QueryRunner } from 'typeorm';

export class RunVariableSnapshotsInRuns1795851845739 implements MigrationInterface {
  name = 'RunVariableSnapshotsInRuns1795851845739';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`runs\`
            ADD \`variable_snapshot\` json NULL
        `);
    // Each live run keeps the snapshot its plan's claim fixed.
    await queryRunner.query(`
            UPDATE \`runs\` r
            JOIN \`run_variable_snapshots\` s ON s.\`run_id\` = r.\`id\`
            SET r.\`variable_snapshot\` = s.\`sealed_variables\`
        `);
    await queryRunner.query(`
            DROP TABLE \`run_variable_snapshots\`
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`run_variable_snapshots\` (
                \`run_id\` varchar(32) NOT NULL,
                \`sealed_variables\` json NOT NULL,
                PRIMARY KEY (\`run_id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            ALTER TABLE \`run_variable_snapshots\`
            ADD CONSTRAINT \`fk_run_variable_snapshots_run\` FOREIGN KEY (\`run_id\`) REFERENCES \`runs\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            INSERT INTO \`run_variable_snapshots\` (\`run_id\`, \`sealed_variables\`)
            SELECT \`id\`, \`variable_snapshot\` FROM \`runs\` WHERE \`variable_snapshot\` IS NOT NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`runs\` DROP COLUMN \`variable_snapshot\`
        `);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

export class RunVariableSnapshots1795777835947 implements MigrationInterface {
  name = 'RunVariableSnapshots1795777835947';

  public async up(queryRunner: QueryRunner): Promise<void> {
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
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`run_variable_snapshots\` DROP FOREIGN KEY \`fk_run_variable_snapshots_run\`
        `);
    await queryRunner.query(`
            DROP TABLE \`run_variable_snapshots\`
        `);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

export class RunVariableSnapshots1795777812860 implements MigrationInterface {
  name = 'RunVariableSnapshots1795777812860';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "run_variable_snapshots" (
                "run_id" varchar(32) PRIMARY KEY NOT NULL,
                "sealed_variables" json NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_run_variable_snapshots" (
                "run_id" varchar(32) PRIMARY KEY NOT NULL,
                "sealed_variables" json NOT NULL,
                CONSTRAINT "fk_run_variable_snapshots_run" FOREIGN KEY ("run_id") REFERENCES "runs" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_run_variable_snapshots"("run_id", "sealed_variables")
            SELECT "run_id",
                "sealed_variables"
            FROM "run_variable_snapshots"
        `);
    await queryRunner.query(`
            DROP TABLE "run_variable_snapshots"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_run_variable_snapshots"
                RENAME TO "run_variable_snapshots"
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "run_variable_snapshots"
                RENAME TO "temporary_run_variable_snapshots"
        `);
    await queryRunner.query(`
            CREATE TABLE "run_variable_snapshots" (
                "run_id" varchar(32) PRIMARY KEY NOT NULL,
                "sealed_variables" json NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "run_variable_snapshots"("run_id", "sealed_variables")
            SELECT "run_id",
                "sealed_variables"
            FROM "temporary_run_variable_snapshots"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_run_variable_snapshots"
        `);
    await queryRunner.query(`
            DROP TABLE "run_variable_snapshots"
        `);
  }
}

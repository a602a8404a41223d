import { MigrationInterface, QueryRunner } from 'typeorm';

export class RunVariables1795775863771 implements MigrationInterface {
  name = 'RunVariables1795775863771';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "run_variables" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "run_id" varchar(32) NOT NULL,
                "position" integer NOT NULL,
                "key" varchar(128) NOT NULL,
                "sealed_value" json NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_run_variables_run" ON "run_variables" ("run_id", "position")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_run_variables_run"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_run_variables" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "run_id" varchar(32) NOT NULL,
                "position" integer NOT NULL,
                "key" varchar(128) NOT NULL,
                "sealed_value" json NOT NULL,
                CONSTRAINT "fk_run_variables_run" FOREIGN KEY ("run_id") REFERENCES "runs" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_run_variables"(
                    "id",
                    "run_id",
                    "position",
                    "key",
                    "sealed_value"
                )
            SELECT "id",
                "run_id",
                "position",
                "key",
                "sealed_value"
            FROM "run_variables"
        `);
    await queryRunner.query(`
            DROP TABLE "run_variables"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_run_variables"
                RENAME TO "run_variables"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_run_variables_run" ON "run_variables" ("run_id", "position")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_run_variables_run"
        `);
    await queryRunner.query(`
            ALTER TABLE "run_variables"
                RENAME TO "temporary_run_variables"
        `);
    await queryRunner.query(`
            CREATE TABLE "run_variables" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "run_id" varchar(32) NOT NULL,
                "position" integer NOT NULL,
                "key" varchar(128) NOT NULL,
                "sealed_value" json NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "run_variables"(
                    "id",
                    "run_id",
                    "position",
                    "key",
                    "sealed_value"
                )
            SELECT "id",
                "run_id",
                "position",
                "key",
                "sealed_value"
            FROM "temporary_run_variables"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_run_variables"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_run_variables_run" ON "run_variables" ("run_id", "position")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_run_variables_run"
        `);
    await queryRunner.query(`
            DROP TABLE "run_variables"
        `);
  }
}

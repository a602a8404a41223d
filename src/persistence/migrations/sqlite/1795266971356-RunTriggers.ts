import { MigrationInterface, QueryRunner } from 'typeorm';

export class RunTriggers1795266971356 implements MigrationInterface {
  name = 'RunTriggers1795266971356';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "run_triggers" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                "sourceable_id" varchar(32) NOT NULL,
                "created_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_run_triggers_sourceable" ON "run_triggers" ("sourceable_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_run_triggers_workspace_sourceable" ON "run_triggers" ("workspace_id", "sourceable_id")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_run_triggers_sourceable"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_run_triggers_workspace_sourceable"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_run_triggers" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                "sourceable_id" varchar(32) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_run_triggers_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "fk_run_triggers_sourceable" FOREIGN KEY ("sourceable_id") REFERENCES "workspaces" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_run_triggers"(
                    "id",
                    "workspace_id",
                    "sourceable_id",
                    "created_at"
                )
            SELECT "id",
                "workspace_id",
                "sourceable_id",
                "created_at"
            FROM "run_triggers"
        `);
    await queryRunner.query(`
            DROP TABLE "run_triggers"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_run_triggers"
                RENAME TO "run_triggers"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_run_triggers_sourceable" ON "run_triggers" ("sourceable_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_run_triggers_workspace_sourceable" ON "run_triggers" ("workspace_id", "sourceable_id")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_run_triggers_workspace_sourceable"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_run_triggers_sourceable"
        `);
    await queryRunner.query(`
            ALTER TABLE "run_triggers"
                RENAME TO "temporary_run_triggers"
        `);
    await queryRunner.query(`
            CREATE TABLE "run_triggers" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                "sourceable_id" varchar(32) NOT NULL,
                "created_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "run_triggers"(
                    "id",
                    "workspace_id",
                    "sourceable_id",
                    "created_at"
                )
            SELECT "id",
                "workspace_id",
                "sourceable_id",
                "created_at"
            FROM "temporary_run_triggers"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_run_triggers"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_run_triggers_workspace_sourceable" ON "run_triggers" ("workspace_id", "sourceable_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_run_triggers_sourceable" ON "run_triggers" ("sourceable_id")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_run_triggers_workspace_sourceable"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_run_triggers_sourceable"
        `);
    await queryRunner.query(`
            DROP TABLE "run_triggers"
        `);
  }
}

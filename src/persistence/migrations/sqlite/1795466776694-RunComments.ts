import { MigrationInterface, QueryRunner } from 'typeorm';

export class RunComments1795466776694 implements MigrationInterface {
  name = 'RunComments1795466776694';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "run_comments" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "run_id" varchar(32) NOT NULL,
                "body" text NOT NULL,
                "action" varchar(16),
                "created_by_id" varchar(32),
                "created_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_run_comments_run_created" ON "run_comments" ("run_id", "created_at")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_run_comments_run_created"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_run_comments" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "run_id" varchar(32) NOT NULL,
                "body" text NOT NULL,
                "action" varchar(16),
                "created_by_id" varchar(32),
                "created_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_run_comments_run" FOREIGN KEY ("run_id") REFERENCES "runs" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_run_comments"(
                    "id",
                    "run_id",
                    "body",
                    "action",
                    "created_by_id",
                    "created_at"
                )
            SELECT "id",
                "run_id",
                "body",
                "action",
                "created_by_id",
                "created_at"
            FROM "run_comments"
        `);
    await queryRunner.query(`
            DROP TABLE "run_comments"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_run_comments"
                RENAME TO "run_comments"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_run_comments_run_created" ON "run_comments" ("run_id", "created_at")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_run_comments_run_created"
        `);
    await queryRunner.query(`
            ALTER TABLE "run_comments"
                RENAME TO "temporary_run_comments"
        `);
    await queryRunner.query(`
            CREATE TABLE "run_comments" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "run_id" varchar(32) NOT NULL,
                "body" text NOT NULL,
                "action" varchar(16),
                "created_by_id" varchar(32),
                "created_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "run_comments"(
                    "id",
                    "run_id",
                    "body",
                    "action",
                    "created_by_id",
                    "created_at"
                )
            SELECT "id",
                "run_id",
                "body",
                "action",
                "created_by_id",
                "created_at"
            FROM "temporary_run_comments"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_run_comments"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_run_comments_run_created" ON "run_comments" ("run_id", "created_at")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_run_comments_run_created"
        `);
    await queryRunner.query(`
            DROP TABLE "run_comments"
        `);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

export class RunLogs1795775873414 implements MigrationInterface {
  name = 'RunLogs1795775873414';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "run_log_chunks" (
                "phase_id" varchar(32) NOT NULL,
                "first_byte" bigint NOT NULL,
                "end_byte" bigint NOT NULL,
                "data" blob NOT NULL,
                PRIMARY KEY ("phase_id", "first_byte")
            )
        `);
    await queryRunner.query(`
            CREATE TABLE "run_logs" (
                "phase_id" varchar(32) PRIMARY KEY NOT NULL,
                "size" bigint NOT NULL,
                "dropped" bigint NOT NULL,
                "archived" boolean NOT NULL DEFAULT (0),
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_run_logs_archived" ON "run_logs" ("archived", "updated_at")
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_run_log_chunks" (
                "phase_id" varchar(32) NOT NULL,
                "first_byte" bigint NOT NULL,
                "end_byte" bigint NOT NULL,
                "data" blob NOT NULL,
                CONSTRAINT "fk_run_log_chunks_phase" FOREIGN KEY ("phase_id") REFERENCES "run_phases" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                PRIMARY KEY ("phase_id", "first_byte")
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_run_log_chunks"("phase_id", "first_byte", "end_byte", "data")
            SELECT "phase_id",
                "first_byte",
                "end_byte",
                "data"
            FROM "run_log_chunks"
        `);
    await queryRunner.query(`
            DROP TABLE "run_log_chunks"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_run_log_chunks"
                RENAME TO "run_log_chunks"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_run_logs_archived"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_run_logs" (
                "phase_id" varchar(32) PRIMARY KEY NOT NULL,
                "size" bigint NOT NULL,
                "dropped" bigint NOT NULL,
                "archived" boolean NOT NULL DEFAULT (0),
                "updated_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_run_logs_phase" FOREIGN KEY ("phase_id") REFERENCES "run_phases" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_run_logs"(
                    "phase_id",
                    "size",
                    "dropped",
                    "archived",
                    "updated_at"
                )
            SELECT "phase_id",
                "size",
                "dropped",
                "archived",
                "updated_at"
            FROM "run_logs"
        `);
    await queryRunner.query(`
            DROP TABLE "run_logs"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_run_logs"
                RENAME TO "run_logs"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_run_logs_archived" ON "run_logs" ("archived", "updated_at")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_run_logs_archived"
        `);
    await queryRunner.query(`
            ALTER TABLE "run_logs"
                RENAME TO "temporary_run_logs"
        `);
    await queryRunner.query(`
            CREATE TABLE "run_logs" (
                "phase_id" varchar(32) PRIMARY KEY NOT NULL,
                "size" bigint NOT NULL,
                "dropped" bigint NOT NULL,
                "archived" boolean NOT NULL DEFAULT (0),
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "run_logs"(
                    "phase_id",
                    "size",
                    "dropped",
                    "archived",
                    "updated_at"
                )
            SELECT "phase_id",
                "size",
                "dropped",
                "archived",
                "updated_at"
            FROM "temporary_run_logs"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_run_logs"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_run_logs_archived" ON "run_logs" ("archived", "updated_at")
        `);
    await queryRunner.query(`
            ALTER TABLE "run_log_chunks"
                RENAME TO "temporary_run_log_chunks"
        `);
    await queryRunner.query(`
            CREATE TABLE "run_log_chunks" (
                "phase_id" varchar(32) NOT NULL,
                "first_byte" bigint NOT NULL,
                "end_byte" bigint NOT NULL,
                "data" blob NOT NULL,
                PRIMARY KEY ("phase_id", "first_byte")
            )
        `);
    await queryRunner.query(`
            INSERT INTO "run_log_chunks"("phase_id", "first_byte", "end_byte", "data")
            SELECT "phase_id",
                "first_byte",
                "end_byte",
                "data"
            FROM "temporary_run_log_chunks"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_run_log_chunks"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_run_logs_archived"
        `);
    await queryRunner.query(`
            DROP TABLE "run_logs"
        `);
    await queryRunner.query(`
            DROP TABLE "run_log_chunks"
        `);
  }
}

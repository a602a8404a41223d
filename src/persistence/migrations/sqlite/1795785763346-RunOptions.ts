import { MigrationInterface, QueryRunner } from 'typeorm';

export class RunOptions1795785763346 implements MigrationInterface {
  name = 'RunOptions1795785763346';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_runs_workspace_created"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_runs_workspace_status_created"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_runs" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                "configuration_version_id" varchar(32) NOT NULL,
                "status" varchar(32) NOT NULL,
                "status_timestamps" text NOT NULL,
                "message" text NOT NULL,
                "is_destroy" boolean NOT NULL DEFAULT (0),
                "plan_only" boolean NOT NULL DEFAULT (0),
                "auto_apply" boolean NOT NULL DEFAULT (0),
                "source" varchar(32) NOT NULL,
                "trigger_reason" varchar(255) NOT NULL,
                "created_by_id" varchar(32),
                "triggering_run_id" varchar(32),
                "plan_id" varchar(32) NOT NULL,
                "apply_id" varchar(32) NOT NULL,
                "has_changes" boolean NOT NULL DEFAULT (0),
                "error_message" text,
                "canceled_at" datetime(3),
                "force_cancel_available_at" datetime(3),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                "refresh" boolean NOT NULL DEFAULT (1),
                "refresh_only" boolean NOT NULL DEFAULT (0),
                "target_addrs" json,
                "replace_addrs" json,
                "allow_empty_apply" boolean NOT NULL DEFAULT (0),
                "allow_config_generation" boolean NOT NULL DEFAULT (0),
                "save_plan" boolean NOT NULL DEFAULT (0),
                "confirmed_at" datetime(3),
                "terraform_version" varchar(64),
                CONSTRAINT "fk_runs_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_runs"(
                    "id",
                    "workspace_id",
                    "configuration_version_id",
                    "status",
                    "status_timestamps",
                    "message",
                    "is_destroy",
                    "plan_only",
                    "auto_apply",
                    "source",
                    "trigger_reason",
                    "created_by_id",
                    "triggering_run_id",
                    "plan_id",
                    "apply_id",
                    "has_changes",
                    "error_message",
                    "canceled_at",
                    "force_cancel_available_at",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "workspace_id",
                "configuration_version_id",
                "status",
                "status_timestamps",
                "message",
                "is_destroy",
                "plan_only",
                "auto_apply",
                "source",
                "trigger_reason",
                "created_by_id",
                "triggering_run_id",
                "plan_id",
                "apply_id",
                "has_changes",
                "error_message",
                "canceled_at",
                "force_cancel_available_at",
                "created_at",
                "updated_at"
            FROM "runs"
        `);
    await queryRunner.query(`
            DROP TABLE "runs"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_runs"
                RENAME TO "runs"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_runs_workspace_created" ON "runs" ("workspace_id", "created_at")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_runs_workspace_status_created" ON "runs" ("workspace_id", "status", "created_at")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_configuration_versions_workspace_created"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_configuration_versions" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                "status" varchar(16) NOT NULL,
                "auto_queue_runs" boolean NOT NULL DEFAULT (0),
                "speculative" boolean NOT NULL DEFAULT (0),
                "error_message" text,
                "created_by_id" varchar(32),
                "archive_key" varchar(200),
                "archive_size" integer,
                "uploaded_at" datetime(3),
                "errored_at" datetime(3),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                "provisional" boolean NOT NULL DEFAULT (0),
                CONSTRAINT "fk_configuration_versions_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_configuration_versions"(
                    "id",
                    "workspace_id",
                    "status",
                    "auto_queue_runs",
                    "speculative",
                    "error_message",
                    "created_by_id",
                    "archive_key",
                    "archive_size",
                    "uploaded_at",
                    "errored_at",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "workspace_id",
                "status",
                "auto_queue_runs",
                "speculative",
                "error_message",
                "created_by_id",
                "archive_key",
                "archive_size",
                "uploaded_at",
                "errored_at",
                "created_at",
                "updated_at"
            FROM "configuration_versions"
        `);
    await queryRunner.query(`
            DROP TABLE "configuration_versions"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_configuration_versions"
                RENAME TO "configuration_versions"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_configuration_versions_workspace_created" ON "configuration_versions" ("workspace_id", "created_at")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_configuration_versions_workspace_created"
        `);
    await queryRunner.query(`
            ALTER TABLE "configuration_versions"
                RENAME TO "temporary_configuration_versions"
        `);
    await queryRunner.query(`
            CREATE TABLE "configuration_versions" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                "status" varchar(16) NOT NULL,
                "auto_queue_runs" boolean NOT NULL DEFAULT (0),
                "speculative" boolean NOT NULL DEFAULT (0),
                "error_message" text,
                "created_by_id" varchar(32),
                "archive_key" varchar(200),
                "archive_size" integer,
                "uploaded_at" datetime(3),
                "errored_at" datetime(3),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_configuration_versions_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "configuration_versions"(
                    "id",
                    "workspace_id",
                    "status",
                    "auto_queue_runs",
                    "speculative",
                    "error_message",
                    "created_by_id",
                    "archive_key",
                    "archive_size",
                    "uploaded_at",
                    "errored_at",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "workspace_id",
                "status",
                "auto_queue_runs",
                "speculative",
                "error_message",
                "created_by_id",
                "archive_key",
                "archive_size",
                "uploaded_at",
                "errored_at",
                "created_at",
                "updated_at"
            FROM "temporary_configuration_versions"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_configuration_versions"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_configuration_versions_workspace_created" ON "configuration_versions" ("workspace_id", "created_at")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_runs_workspace_status_created"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_runs_workspace_created"
        `);
    await queryRunner.query(`
            ALTER TABLE "runs"
                RENAME TO "temporary_runs"
        `);
    await queryRunner.query(`
            CREATE TABLE "runs" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                "configuration_version_id" varchar(32) NOT NULL,
                "status" varchar(32) NOT NULL,
                "status_timestamps" text NOT NULL,
                "message" text NOT NULL,
                "is_destroy" boolean NOT NULL DEFAULT (0),
                "plan_only" boolean NOT NULL DEFAULT (0),
                "auto_apply" boolean NOT NULL DEFAULT (0),
                "source" varchar(32) NOT NULL,
                "trigger_reason" varchar(255) NOT NULL,
                "created_by_id" varchar(32),
                "triggering_run_id" varchar(32),
                "plan_id" varchar(32) NOT NULL,
                "apply_id" varchar(32) NOT NULL,
                "has_changes" boolean NOT NULL DEFAULT (0),
                "error_message" text,
                "canceled_at" datetime(3),
                "force_cancel_available_at" datetime(3),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_runs_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "runs"(
                    "id",
                    "workspace_id",
                    "configuration_version_id",
                    "status",
                    "status_timestamps",
                    "message",
                    "is_destroy",
                    "plan_only",
                    "auto_apply",
                    "source",
                    "trigger_reason",
                    "created_by_id",
                    "triggering_run_id",
                    "plan_id",
                    "apply_id",
                    "has_changes",
                    "error_message",
                    "canceled_at",
                    "force_cancel_available_at",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "workspace_id",
                "configuration_version_id",
                "status",
                "status_timestamps",
                "message",
                "is_destroy",
                "plan_only",
                "auto_apply",
                "source",
                "trigger_reason",
                "created_by_id",
                "triggering_run_id",
                "plan_id",
                "apply_id",
                "has_changes",
                "error_message",
                "canceled_at",
                "force_cancel_available_at",
                "created_at",
                "updated_at"
            FROM "temporary_runs"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_runs"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_runs_workspace_status_created" ON "runs" ("workspace_id", "status", "created_at")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_runs_workspace_created" ON "runs" ("workspace_id", "created_at")
        `);
  }
}

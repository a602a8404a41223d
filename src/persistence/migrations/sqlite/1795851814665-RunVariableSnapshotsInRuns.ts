import { MigrationInterface, QueryRunner } from 'typeorm';

export class RunVariableSnapshotsInRuns1795851814665 implements MigrationInterface {
  name = 'RunVariableSnapshotsInRuns1795851814665';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_runs_workspace_status_created"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_runs_workspace_created"
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
                "variable_snapshot" json,
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
                    "updated_at",
                    "refresh",
                    "refresh_only",
                    "target_addrs",
                    "replace_addrs",
                    "allow_empty_apply",
                    "allow_config_generation",
                    "save_plan",
                    "confirmed_at",
                    "terraform_version",
                    "variable_snapshot"
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
                "updated_at",
                "refresh",
                "refresh_only",
                "target_addrs",
                "replace_addrs",
                "allow_empty_apply",
                "allow_config_generation",
                "save_plan",
                "confirmed_at",
                "terraform_version",
                (
                    SELECT s."sealed_variables"
                    FROM "run_variable_snapshots" s
                    WHERE s."run_id" = "runs"."id"
                )
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
            CREATE INDEX "ix_runs_workspace_status_created" ON "runs" ("workspace_id", "status", "created_at")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_runs_workspace_created" ON "runs" ("workspace_id", "created_at")
        `);
    // Each live run's snapshot was copied into its row above.
    await queryRunner.query(`
            DROP TABLE "run_variable_snapshots"
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "run_variable_snapshots" (
                "run_id" varchar(32) PRIMARY KEY NOT NULL,
                "sealed_variables" json NOT NULL,
                CONSTRAINT "fk_run_variable_snapshots_run" FOREIGN KEY ("run_id") REFERENCES "runs" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "run_variable_snapshots"("run_id", "sealed_variables")
            SELECT "id", "variable_snapshot" FROM "runs" WHERE "variable_snapshot" IS NOT NULL
        `);
    await queryRunner.query(`
            DROP INDEX "ix_runs_workspace_created"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_runs_workspace_status_created"
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
                    "updated_at",
                    "refresh",
                    "refresh_only",
                    "target_addrs",
                    "replace_addrs",
                    "allow_empty_apply",
                    "allow_config_generation",
                    "save_plan",
                    "confirmed_at",
                    "terraform_version"
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
                "updated_at",
                "refresh",
                "refresh_only",
                "target_addrs",
                "replace_addrs",
                "allow_empty_apply",
                "allow_config_generation",
                "save_plan",
                "confirmed_at",
                "terraform_version"
            FROM "temporary_runs"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_runs"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_runs_workspace_created" ON "runs" ("workspace_id", "created_at")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_runs_workspace_status_created" ON "runs" ("workspace_id", "status", "created_at")
        `);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

export class Runs1795456253890 implements MigrationInterface {
  name = 'Runs1795456253890';

  public async up(queryRunner: QueryRunner): Promise<void> {
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
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_configuration_versions_workspace_created" ON "configuration_versions" ("workspace_id", "created_at")
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
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_runs_workspace_status" ON "runs" ("workspace_id", "status")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_runs_workspace_created" ON "runs" ("workspace_id", "created_at")
        `);
    await queryRunner.query(`
            CREATE TABLE "run_phases" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "run_id" varchar(32) NOT NULL,
                "kind" varchar(8) NOT NULL,
                "status" varchar(16) NOT NULL,
                "status_timestamps" text NOT NULL,
                "has_changes" boolean,
                "resource_additions" integer NOT NULL DEFAULT (0),
                "resource_changes" integer NOT NULL DEFAULT (0),
                "resource_destructions" integer NOT NULL DEFAULT (0),
                "resource_imports" integer NOT NULL DEFAULT (0),
                "agent_id" varchar(32),
                "agent_pool_id" varchar(32),
                "error_message" text,
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE TABLE "run_jobs" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "phase_id" varchar(32) NOT NULL,
                "run_id" varchar(32) NOT NULL,
                "kind" varchar(8) NOT NULL,
                "status" varchar(16) NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "agent_pool_id" varchar(32),
                "agent_id" varchar(32),
                "claimed_at" datetime(3),
                "heartbeat_at" datetime(3),
                "report" text,
                "finished_at" datetime(3),
                "created_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_run_jobs_heartbeat" ON "run_jobs" ("status", "heartbeat_at")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_run_jobs_claimable" ON "run_jobs" (
                "status",
                "agent_pool_id",
                "organization_id",
                "created_at"
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_run_jobs_phase" ON "run_jobs" ("phase_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "run_trigger_outcomes" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "run_trigger_id" varchar(32) NOT NULL,
                "source_run_id" varchar(32) NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                "run_id" varchar(32),
                "reason" text,
                "created_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_run_trigger_outcomes_trigger_source" ON "run_trigger_outcomes" ("run_trigger_id", "source_run_id")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_workspaces_agent_pool"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_workspaces_project"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_workspaces_org_name"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_workspaces" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "project_id" varchar(32) NOT NULL,
                "name" varchar(90) NOT NULL,
                "description" text,
                "engine_version" varchar(64) NOT NULL DEFAULT ('latest'),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                "execution_mode" varchar(16) NOT NULL DEFAULT ('remote'),
                "agent_pool_id" varchar(32),
                "auto_apply" boolean NOT NULL DEFAULT (0),
                "auto_apply_run_trigger" boolean NOT NULL DEFAULT (0),
                "locked" boolean NOT NULL DEFAULT (0),
                "locked_by_type" varchar(16),
                "locked_by_id" varchar(90),
                CONSTRAINT "fk_workspaces_agent_pool" FOREIGN KEY ("agent_pool_id") REFERENCES "agent_pools" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION,
                CONSTRAINT "fk_workspaces_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "fk_workspaces_project" FOREIGN KEY ("project_id") REFERENCES "projects" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_workspaces"(
                    "id",
                    "organization_id",
                    "project_id",
                    "name",
                    "description",
                    "engine_version",
                    "created_at",
                    "updated_at",
                    "execution_mode",
                    "agent_pool_id",
                    "auto_apply",
                    "auto_apply_run_trigger"
                )
            SELECT "id",
                "organization_id",
                "project_id",
                "name",
                "description",
                "engine_version",
                "created_at",
                "updated_at",
                "execution_mode",
                "agent_pool_id",
                "auto_apply",
                "auto_apply_run_trigger"
            FROM "workspaces"
        `);
    await queryRunner.query(`
            DROP TABLE "workspaces"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_workspaces"
                RENAME TO "workspaces"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_workspaces_agent_pool" ON "workspaces" ("agent_pool_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_workspaces_project" ON "workspaces" ("project_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_workspaces_org_name" ON "workspaces" ("organization_id", "name")
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
    await queryRunner.query(`
            DROP INDEX "ix_runs_workspace_status"
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
            CREATE INDEX "ix_runs_workspace_status" ON "runs" ("workspace_id", "status")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_runs_workspace_created" ON "runs" ("workspace_id", "created_at")
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_run_phases" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "run_id" varchar(32) NOT NULL,
                "kind" varchar(8) NOT NULL,
                "status" varchar(16) NOT NULL,
                "status_timestamps" text NOT NULL,
                "has_changes" boolean,
                "resource_additions" integer NOT NULL DEFAULT (0),
                "resource_changes" integer NOT NULL DEFAULT (0),
                "resource_destructions" integer NOT NULL DEFAULT (0),
                "resource_imports" integer NOT NULL DEFAULT (0),
                "agent_id" varchar(32),
                "agent_pool_id" varchar(32),
                "error_message" text,
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_run_phases_run" FOREIGN KEY ("run_id") REFERENCES "runs" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_run_phases"(
                    "id",
                    "run_id",
                    "kind",
                    "status",
                    "status_timestamps",
                    "has_changes",
                    "resource_additions",
                    "resource_changes",
                    "resource_destructions",
                    "resource_imports",
                    "agent_id",
                    "agent_pool_id",
                    "error_message",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "run_id",
                "kind",
                "status",
                "status_timestamps",
                "has_changes",
                "resource_additions",
                "resource_changes",
                "resource_destructions",
                "resource_imports",
                "agent_id",
                "agent_pool_id",
                "error_message",
                "created_at",
                "updated_at"
            FROM "run_phases"
        `);
    await queryRunner.query(`
            DROP TABLE "run_phases"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_run_phases"
                RENAME TO "run_phases"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_run_jobs_heartbeat"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_run_jobs_claimable"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_run_jobs_phase"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_run_jobs" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "phase_id" varchar(32) NOT NULL,
                "run_id" varchar(32) NOT NULL,
                "kind" varchar(8) NOT NULL,
                "status" varchar(16) NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "agent_pool_id" varchar(32),
                "agent_id" varchar(32),
                "claimed_at" datetime(3),
                "heartbeat_at" datetime(3),
                "report" text,
                "finished_at" datetime(3),
                "created_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_run_jobs_phase" FOREIGN KEY ("phase_id") REFERENCES "run_phases" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_run_jobs"(
                    "id",
                    "phase_id",
                    "run_id",
                    "kind",
                    "status",
                    "organization_id",
                    "agent_pool_id",
                    "agent_id",
                    "claimed_at",
                    "heartbeat_at",
                    "report",
                    "finished_at",
                    "created_at"
                )
            SELECT "id",
                "phase_id",
                "run_id",
                "kind",
                "status",
                "organization_id",
                "agent_pool_id",
                "agent_id",
                "claimed_at",
                "heartbeat_at",
                "report",
                "finished_at",
                "created_at"
            FROM "run_jobs"
        `);
    await queryRunner.query(`
            DROP TABLE "run_jobs"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_run_jobs"
                RENAME TO "run_jobs"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_run_jobs_heartbeat" ON "run_jobs" ("status", "heartbeat_at")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_run_jobs_claimable" ON "run_jobs" (
                "status",
                "agent_pool_id",
                "organization_id",
                "created_at"
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_run_jobs_phase" ON "run_jobs" ("phase_id")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_run_trigger_outcomes_trigger_source"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_run_trigger_outcomes" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "run_trigger_id" varchar(32) NOT NULL,
                "source_run_id" varchar(32) NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                "run_id" varchar(32),
                "reason" text,
                "created_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_run_trigger_outcomes_source_run" FOREIGN KEY ("source_run_id") REFERENCES "runs" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_run_trigger_outcomes"(
                    "id",
                    "run_trigger_id",
                    "source_run_id",
                    "workspace_id",
                    "run_id",
                    "reason",
                    "created_at"
                )
            SELECT "id",
                "run_trigger_id",
                "source_run_id",
                "workspace_id",
                "run_id",
                "reason",
                "created_at"
            FROM "run_trigger_outcomes"
        `);
    await queryRunner.query(`
            DROP TABLE "run_trigger_outcomes"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_run_trigger_outcomes"
                RENAME TO "run_trigger_outcomes"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_run_trigger_outcomes_trigger_source" ON "run_trigger_outcomes" ("run_trigger_id", "source_run_id")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_run_trigger_outcomes_trigger_source"
        `);
    await queryRunner.query(`
            ALTER TABLE "run_trigger_outcomes"
                RENAME TO "temporary_run_trigger_outcomes"
        `);
    await queryRunner.query(`
            CREATE TABLE "run_trigger_outcomes" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "run_trigger_id" varchar(32) NOT NULL,
                "source_run_id" varchar(32) NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                "run_id" varchar(32),
                "reason" text,
                "created_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "run_trigger_outcomes"(
                    "id",
                    "run_trigger_id",
                    "source_run_id",
                    "workspace_id",
                    "run_id",
                    "reason",
                    "created_at"
                )
            SELECT "id",
                "run_trigger_id",
                "source_run_id",
                "workspace_id",
                "run_id",
                "reason",
                "created_at"
            FROM "temporary_run_trigger_outcomes"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_run_trigger_outcomes"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_run_trigger_outcomes_trigger_source" ON "run_trigger_outcomes" ("run_trigger_id", "source_run_id")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_run_jobs_phase"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_run_jobs_claimable"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_run_jobs_heartbeat"
        `);
    await queryRunner.query(`
            ALTER TABLE "run_jobs"
                RENAME TO "temporary_run_jobs"
        `);
    await queryRunner.query(`
            CREATE TABLE "run_jobs" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "phase_id" varchar(32) NOT NULL,
                "run_id" varchar(32) NOT NULL,
                "kind" varchar(8) NOT NULL,
                "status" varchar(16) NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "agent_pool_id" varchar(32),
                "agent_id" varchar(32),
                "claimed_at" datetime(3),
                "heartbeat_at" datetime(3),
                "report" text,
                "finished_at" datetime(3),
                "created_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "run_jobs"(
                    "id",
                    "phase_id",
                    "run_id",
                    "kind",
                    "status",
                    "organization_id",
                    "agent_pool_id",
                    "agent_id",
                    "claimed_at",
                    "heartbeat_at",
                    "report",
                    "finished_at",
                    "created_at"
                )
            SELECT "id",
                "phase_id",
                "run_id",
                "kind",
                "status",
                "organization_id",
                "agent_pool_id",
                "agent_id",
                "claimed_at",
                "heartbeat_at",
                "report",
                "finished_at",
                "created_at"
            FROM "temporary_run_jobs"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_run_jobs"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_run_jobs_phase" ON "run_jobs" ("phase_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_run_jobs_claimable" ON "run_jobs" (
                "status",
                "agent_pool_id",
                "organization_id",
                "created_at"
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_run_jobs_heartbeat" ON "run_jobs" ("status", "heartbeat_at")
        `);
    await queryRunner.query(`
            ALTER TABLE "run_phases"
                RENAME TO "temporary_run_phases"
        `);
    await queryRunner.query(`
            CREATE TABLE "run_phases" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "run_id" varchar(32) NOT NULL,
                "kind" varchar(8) NOT NULL,
                "status" varchar(16) NOT NULL,
                "status_timestamps" text NOT NULL,
                "has_changes" boolean,
                "resource_additions" integer NOT NULL DEFAULT (0),
                "resource_changes" integer NOT NULL DEFAULT (0),
                "resource_destructions" integer NOT NULL DEFAULT (0),
                "resource_imports" integer NOT NULL DEFAULT (0),
                "agent_id" varchar(32),
                "agent_pool_id" varchar(32),
                "error_message" text,
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "run_phases"(
                    "id",
                    "run_id",
                    "kind",
                    "status",
                    "status_timestamps",
                    "has_changes",
                    "resource_additions",
                    "resource_changes",
                    "resource_destructions",
                    "resource_imports",
                    "agent_id",
                    "agent_pool_id",
                    "error_message",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "run_id",
                "kind",
                "status",
                "status_timestamps",
                "has_changes",
                "resource_additions",
                "resource_changes",
                "resource_destructions",
                "resource_imports",
                "agent_id",
                "agent_pool_id",
                "error_message",
                "created_at",
                "updated_at"
            FROM "temporary_run_phases"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_run_phases"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_runs_workspace_created"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_runs_workspace_status"
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
                "updated_at" datetime(3) NOT NULL
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
            CREATE INDEX "ix_runs_workspace_created" ON "runs" ("workspace_id", "created_at")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_runs_workspace_status" ON "runs" ("workspace_id", "status")
        `);
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
                "updated_at" datetime(3) NOT NULL
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
            DROP INDEX "uq_workspaces_org_name"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_workspaces_project"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_workspaces_agent_pool"
        `);
    await queryRunner.query(`
            ALTER TABLE "workspaces"
                RENAME TO "temporary_workspaces"
        `);
    await queryRunner.query(`
            CREATE TABLE "workspaces" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "project_id" varchar(32) NOT NULL,
                "name" varchar(90) NOT NULL,
                "description" text,
                "engine_version" varchar(64) NOT NULL DEFAULT ('latest'),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                "execution_mode" varchar(16) NOT NULL DEFAULT ('remote'),
                "agent_pool_id" varchar(32),
                "auto_apply" boolean NOT NULL DEFAULT (0),
                "auto_apply_run_trigger" boolean NOT NULL DEFAULT (0),
                CONSTRAINT "fk_workspaces_agent_pool" FOREIGN KEY ("agent_pool_id") REFERENCES "agent_pools" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION,
                CONSTRAINT "fk_workspaces_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "fk_workspaces_project" FOREIGN KEY ("project_id") REFERENCES "projects" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "workspaces"(
                    "id",
                    "organization_id",
                    "project_id",
                    "name",
                    "description",
                    "engine_version",
                    "created_at",
                    "updated_at",
                    "execution_mode",
                    "agent_pool_id",
                    "auto_apply",
                    "auto_apply_run_trigger"
                )
            SELECT "id",
                "organization_id",
                "project_id",
                "name",
                "description",
                "engine_version",
                "created_at",
                "updated_at",
                "execution_mode",
                "agent_pool_id",
                "auto_apply",
                "auto_apply_run_trigger"
            FROM "temporary_workspaces"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_workspaces"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_workspaces_org_name" ON "workspaces" ("organization_id", "name")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_workspaces_project" ON "workspaces" ("project_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_workspaces_agent_pool" ON "workspaces" ("agent_pool_id")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_run_trigger_outcomes_trigger_source"
        `);
    await queryRunner.query(`
            DROP TABLE "run_trigger_outcomes"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_run_jobs_phase"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_run_jobs_claimable"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_run_jobs_heartbeat"
        `);
    await queryRunner.query(`
            DROP TABLE "run_jobs"
        `);
    await queryRunner.query(`
            DROP TABLE "run_phases"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_runs_workspace_created"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_runs_workspace_status"
        `);
    await queryRunner.query(`
            DROP TABLE "runs"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_configuration_versions_workspace_created"
        `);
    await queryRunner.query(`
            DROP TABLE "configuration_versions"
        `);
  }
}

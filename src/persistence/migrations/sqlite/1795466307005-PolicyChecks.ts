import { MigrationInterface, QueryRunner } from 'typeorm';

export class PolicyChecks1795466307005 implements MigrationInterface {
  name = 'PolicyChecks1795466307005';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "policy_checks" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "run_id" varchar(32) NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                "status" varchar(16) NOT NULL,
                "status_timestamps" text NOT NULL,
                "passed" integer NOT NULL DEFAULT (0),
                "advisory_failed" integer NOT NULL DEFAULT (0),
                "soft_failed" integer NOT NULL DEFAULT (0),
                "hard_failed" integer NOT NULL DEFAULT (0),
                "plan_only" boolean NOT NULL DEFAULT (0),
                "overridden_by_type" varchar(16),
                "overridden_by_id" varchar(32),
                "overridden_at" datetime(3),
                "error_message" text,
                "finished_at" datetime(3),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_policy_checks_run" ON "policy_checks" ("run_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "policy_evaluations" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "policy_check_id" varchar(32) NOT NULL,
                "position" integer NOT NULL,
                "outcome_id" varchar(32) NOT NULL,
                "policy_set_id" varchar(32) NOT NULL,
                "policy_set_name" varchar(128) NOT NULL,
                "policy_set_description" text,
                "policy_kind" varchar(16) NOT NULL,
                "policy_tool_version" varchar(64) NOT NULL,
                "overridable" boolean NOT NULL DEFAULT (0),
                "policy_set_version_id" varchar(32),
                "bundle_key" varchar(255),
                "status" varchar(16) NOT NULL,
                "status_timestamps" text NOT NULL,
                "error" text,
                "passed" integer NOT NULL DEFAULT (0),
                "advisory_failed" integer NOT NULL DEFAULT (0),
                "soft_failed" integer NOT NULL DEFAULT (0),
                "hard_failed" integer NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_policy_evaluations_outcome" ON "policy_evaluations" ("outcome_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_policy_evaluations_check" ON "policy_evaluations" ("policy_check_id", "position")
        `);
    await queryRunner.query(`
            CREATE TABLE "policy_outcomes" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "evaluation_id" varchar(32) NOT NULL,
                "position" integer NOT NULL,
                "policy_name" varchar(128) NOT NULL,
                "description" text,
                "enforcement_level" varchar(32) NOT NULL,
                "query" varchar(512),
                "code_key" varchar(255),
                "status" varchar(16) NOT NULL,
                "output" text
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_policy_outcomes_evaluation" ON "policy_outcomes" ("evaluation_id", "position")
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
                "evaluation_id" varchar(32),
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
            DROP INDEX "uq_teams_org_name"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_teams" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "name" varchar(128) NOT NULL,
                "is_owners" boolean NOT NULL DEFAULT (0),
                "visibility" varchar(16) NOT NULL DEFAULT ('secret'),
                "manage_policies" boolean NOT NULL DEFAULT (0),
                "manage_workspaces" boolean NOT NULL DEFAULT (0),
                "manage_projects" boolean NOT NULL DEFAULT (0),
                "manage_providers" boolean NOT NULL DEFAULT (0),
                "read_workspaces" boolean NOT NULL DEFAULT (0),
                "read_projects" boolean NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                "manage_policy_overrides" boolean NOT NULL DEFAULT (0),
                CONSTRAINT "fk_teams_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_teams"(
                    "id",
                    "organization_id",
                    "name",
                    "is_owners",
                    "visibility",
                    "manage_policies",
                    "manage_workspaces",
                    "manage_projects",
                    "manage_providers",
                    "read_workspaces",
                    "read_projects",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "organization_id",
                "name",
                "is_owners",
                "visibility",
                "manage_policies",
                "manage_workspaces",
                "manage_projects",
                "manage_providers",
                "read_workspaces",
                "read_projects",
                "created_at",
                "updated_at"
            FROM "teams"
        `);
    await queryRunner.query(`
            DROP TABLE "teams"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_teams"
                RENAME TO "teams"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_teams_org_name" ON "teams" ("organization_id", "name")
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
                "evaluation_id" varchar(32)
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
                    "created_at",
                    "evaluation_id"
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
                "created_at",
                "evaluation_id"
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
            DROP INDEX "uq_run_jobs_phase"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_run_jobs_claimable"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_run_jobs_heartbeat"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_run_jobs" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "phase_id" varchar(32),
                "run_id" varchar(32) NOT NULL,
                "kind" varchar(24) NOT NULL,
                "status" varchar(16) NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "agent_pool_id" varchar(32),
                "agent_id" varchar(32),
                "claimed_at" datetime(3),
                "heartbeat_at" datetime(3),
                "report" text,
                "finished_at" datetime(3),
                "created_at" datetime(3) NOT NULL,
                "evaluation_id" varchar(32)
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
                    "created_at",
                    "evaluation_id"
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
                "created_at",
                "evaluation_id"
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
            CREATE UNIQUE INDEX "uq_run_jobs_evaluation" ON "run_jobs" ("evaluation_id")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_policy_checks_run"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_policy_checks" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "run_id" varchar(32) NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                "status" varchar(16) NOT NULL,
                "status_timestamps" text NOT NULL,
                "passed" integer NOT NULL DEFAULT (0),
                "advisory_failed" integer NOT NULL DEFAULT (0),
                "soft_failed" integer NOT NULL DEFAULT (0),
                "hard_failed" integer NOT NULL DEFAULT (0),
                "plan_only" boolean NOT NULL DEFAULT (0),
                "overridden_by_type" varchar(16),
                "overridden_by_id" varchar(32),
                "overridden_at" datetime(3),
                "error_message" text,
                "finished_at" datetime(3),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_policy_checks_run" FOREIGN KEY ("run_id") REFERENCES "runs" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_policy_checks"(
                    "id",
                    "run_id",
                    "organization_id",
                    "workspace_id",
                    "status",
                    "status_timestamps",
                    "passed",
                    "advisory_failed",
                    "soft_failed",
                    "hard_failed",
                    "plan_only",
                    "overridden_by_type",
                    "overridden_by_id",
                    "overridden_at",
                    "error_message",
                    "finished_at",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "run_id",
                "organization_id",
                "workspace_id",
                "status",
                "status_timestamps",
                "passed",
                "advisory_failed",
                "soft_failed",
                "hard_failed",
                "plan_only",
                "overridden_by_type",
                "overridden_by_id",
                "overridden_at",
                "error_message",
                "finished_at",
                "created_at",
                "updated_at"
            FROM "policy_checks"
        `);
    await queryRunner.query(`
            DROP TABLE "policy_checks"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_policy_checks"
                RENAME TO "policy_checks"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_policy_checks_run" ON "policy_checks" ("run_id")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_policy_evaluations_outcome"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_policy_evaluations_check"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_policy_evaluations" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "policy_check_id" varchar(32) NOT NULL,
                "position" integer NOT NULL,
                "outcome_id" varchar(32) NOT NULL,
                "policy_set_id" varchar(32) NOT NULL,
                "policy_set_name" varchar(128) NOT NULL,
                "policy_set_description" text,
                "policy_kind" varchar(16) NOT NULL,
                "policy_tool_version" varchar(64) NOT NULL,
                "overridable" boolean NOT NULL DEFAULT (0),
                "policy_set_version_id" varchar(32),
                "bundle_key" varchar(255),
                "status" varchar(16) NOT NULL,
                "status_timestamps" text NOT NULL,
                "error" text,
                "passed" integer NOT NULL DEFAULT (0),
                "advisory_failed" integer NOT NULL DEFAULT (0),
                "soft_failed" integer NOT NULL DEFAULT (0),
                "hard_failed" integer NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_policy_evaluations_check" FOREIGN KEY ("policy_check_id") REFERENCES "policy_checks" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_policy_evaluations"(
                    "id",
                    "policy_check_id",
                    "position",
                    "outcome_id",
                    "policy_set_id",
                    "policy_set_name",
                    "policy_set_description",
                    "policy_kind",
                    "policy_tool_version",
                    "overridable",
                    "policy_set_version_id",
                    "bundle_key",
                    "status",
                    "status_timestamps",
                    "error",
                    "passed",
                    "advisory_failed",
                    "soft_failed",
                    "hard_failed",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "policy_check_id",
                "position",
                "outcome_id",
                "policy_set_id",
                "policy_set_name",
                "policy_set_description",
                "policy_kind",
                "policy_tool_version",
                "overridable",
                "policy_set_version_id",
                "bundle_key",
                "status",
                "status_timestamps",
                "error",
                "passed",
                "advisory_failed",
                "soft_failed",
                "hard_failed",
                "created_at",
                "updated_at"
            FROM "policy_evaluations"
        `);
    await queryRunner.query(`
            DROP TABLE "policy_evaluations"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_policy_evaluations"
                RENAME TO "policy_evaluations"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_policy_evaluations_outcome" ON "policy_evaluations" ("outcome_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_policy_evaluations_check" ON "policy_evaluations" ("policy_check_id", "position")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_policy_outcomes_evaluation"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_policy_outcomes" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "evaluation_id" varchar(32) NOT NULL,
                "position" integer NOT NULL,
                "policy_name" varchar(128) NOT NULL,
                "description" text,
                "enforcement_level" varchar(32) NOT NULL,
                "query" varchar(512),
                "code_key" varchar(255),
                "status" varchar(16) NOT NULL,
                "output" text,
                CONSTRAINT "fk_policy_outcomes_evaluation" FOREIGN KEY ("evaluation_id") REFERENCES "policy_evaluations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_policy_outcomes"(
                    "id",
                    "evaluation_id",
                    "position",
                    "policy_name",
                    "description",
                    "enforcement_level",
                    "query",
                    "code_key",
                    "status",
                    "output"
                )
            SELECT "id",
                "evaluation_id",
                "position",
                "policy_name",
                "description",
                "enforcement_level",
                "query",
                "code_key",
                "status",
                "output"
            FROM "policy_outcomes"
        `);
    await queryRunner.query(`
            DROP TABLE "policy_outcomes"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_policy_outcomes"
                RENAME TO "policy_outcomes"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_policy_outcomes_evaluation" ON "policy_outcomes" ("evaluation_id", "position")
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
            DROP INDEX "uq_run_jobs_evaluation"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_run_jobs" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "phase_id" varchar(32),
                "run_id" varchar(32) NOT NULL,
                "kind" varchar(24) NOT NULL,
                "status" varchar(16) NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "agent_pool_id" varchar(32),
                "agent_id" varchar(32),
                "claimed_at" datetime(3),
                "heartbeat_at" datetime(3),
                "report" text,
                "finished_at" datetime(3),
                "created_at" datetime(3) NOT NULL,
                "evaluation_id" varchar(32),
                CONSTRAINT "fk_run_jobs_phase" FOREIGN KEY ("phase_id") REFERENCES "run_phases" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "fk_run_jobs_run" FOREIGN KEY ("run_id") REFERENCES "runs" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
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
                    "created_at",
                    "evaluation_id"
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
                "created_at",
                "evaluation_id"
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
            CREATE UNIQUE INDEX "uq_run_jobs_evaluation" ON "run_jobs" ("evaluation_id")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_run_jobs_evaluation"
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
            ALTER TABLE "run_jobs"
                RENAME TO "temporary_run_jobs"
        `);
    await queryRunner.query(`
            CREATE TABLE "run_jobs" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "phase_id" varchar(32),
                "run_id" varchar(32) NOT NULL,
                "kind" varchar(24) NOT NULL,
                "status" varchar(16) NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "agent_pool_id" varchar(32),
                "agent_id" varchar(32),
                "claimed_at" datetime(3),
                "heartbeat_at" datetime(3),
                "report" text,
                "finished_at" datetime(3),
                "created_at" datetime(3) NOT NULL,
                "evaluation_id" varchar(32)
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
                    "created_at",
                    "evaluation_id"
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
                "created_at",
                "evaluation_id"
            FROM "temporary_run_jobs"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_run_jobs"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_run_jobs_evaluation" ON "run_jobs" ("evaluation_id")
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
            DROP INDEX "ix_policy_outcomes_evaluation"
        `);
    await queryRunner.query(`
            ALTER TABLE "policy_outcomes"
                RENAME TO "temporary_policy_outcomes"
        `);
    await queryRunner.query(`
            CREATE TABLE "policy_outcomes" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "evaluation_id" varchar(32) NOT NULL,
                "position" integer NOT NULL,
                "policy_name" varchar(128) NOT NULL,
                "description" text,
                "enforcement_level" varchar(32) NOT NULL,
                "query" varchar(512),
                "code_key" varchar(255),
                "status" varchar(16) NOT NULL,
                "output" text
            )
        `);
    await queryRunner.query(`
            INSERT INTO "policy_outcomes"(
                    "id",
                    "evaluation_id",
                    "position",
                    "policy_name",
                    "description",
                    "enforcement_level",
                    "query",
                    "code_key",
                    "status",
                    "output"
                )
            SELECT "id",
                "evaluation_id",
                "position",
                "policy_name",
                "description",
                "enforcement_level",
                "query",
                "code_key",
                "status",
                "output"
            FROM "temporary_policy_outcomes"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_policy_outcomes"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_policy_outcomes_evaluation" ON "policy_outcomes" ("evaluation_id", "position")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_policy_evaluations_check"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_policy_evaluations_outcome"
        `);
    await queryRunner.query(`
            ALTER TABLE "policy_evaluations"
                RENAME TO "temporary_policy_evaluations"
        `);
    await queryRunner.query(`
            CREATE TABLE "policy_evaluations" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "policy_check_id" varchar(32) NOT NULL,
                "position" integer NOT NULL,
                "outcome_id" varchar(32) NOT NULL,
                "policy_set_id" varchar(32) NOT NULL,
                "policy_set_name" varchar(128) NOT NULL,
                "policy_set_description" text,
                "policy_kind" varchar(16) NOT NULL,
                "policy_tool_version" varchar(64) NOT NULL,
                "overridable" boolean NOT NULL DEFAULT (0),
                "policy_set_version_id" varchar(32),
                "bundle_key" varchar(255),
                "status" varchar(16) NOT NULL,
                "status_timestamps" text NOT NULL,
                "error" text,
                "passed" integer NOT NULL DEFAULT (0),
                "advisory_failed" integer NOT NULL DEFAULT (0),
                "soft_failed" integer NOT NULL DEFAULT (0),
                "hard_failed" integer NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "policy_evaluations"(
                    "id",
                    "policy_check_id",
                    "position",
                    "outcome_id",
                    "policy_set_id",
                    "policy_set_name",
                    "policy_set_description",
                    "policy_kind",
                    "policy_tool_version",
                    "overridable",
                    "policy_set_version_id",
                    "bundle_key",
                    "status",
                    "status_timestamps",
                    "error",
                    "passed",
                    "advisory_failed",
                    "soft_failed",
                    "hard_failed",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "policy_check_id",
                "position",
                "outcome_id",
                "policy_set_id",
                "policy_set_name",
                "policy_set_description",
                "policy_kind",
                "policy_tool_version",
                "overridable",
                "policy_set_version_id",
                "bundle_key",
                "status",
                "status_timestamps",
                "error",
                "passed",
                "advisory_failed",
                "soft_failed",
                "hard_failed",
                "created_at",
                "updated_at"
            FROM "temporary_policy_evaluations"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_policy_evaluations"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_policy_evaluations_check" ON "policy_evaluations" ("policy_check_id", "position")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_policy_evaluations_outcome" ON "policy_evaluations" ("outcome_id")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_policy_checks_run"
        `);
    await queryRunner.query(`
            ALTER TABLE "policy_checks"
                RENAME TO "temporary_policy_checks"
        `);
    await queryRunner.query(`
            CREATE TABLE "policy_checks" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "run_id" varchar(32) NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                "status" varchar(16) NOT NULL,
                "status_timestamps" text NOT NULL,
                "passed" integer NOT NULL DEFAULT (0),
                "advisory_failed" integer NOT NULL DEFAULT (0),
                "soft_failed" integer NOT NULL DEFAULT (0),
                "hard_failed" integer NOT NULL DEFAULT (0),
                "plan_only" boolean NOT NULL DEFAULT (0),
                "overridden_by_type" varchar(16),
                "overridden_by_id" varchar(32),
                "overridden_at" datetime(3),
                "error_message" text,
                "finished_at" datetime(3),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "policy_checks"(
                    "id",
                    "run_id",
                    "organization_id",
                    "workspace_id",
                    "status",
                    "status_timestamps",
                    "passed",
                    "advisory_failed",
                    "soft_failed",
                    "hard_failed",
                    "plan_only",
                    "overridden_by_type",
                    "overridden_by_id",
                    "overridden_at",
                    "error_message",
                    "finished_at",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "run_id",
                "organization_id",
                "workspace_id",
                "status",
                "status_timestamps",
                "passed",
                "advisory_failed",
                "soft_failed",
                "hard_failed",
                "plan_only",
                "overridden_by_type",
                "overridden_by_id",
                "overridden_at",
                "error_message",
                "finished_at",
                "created_at",
                "updated_at"
            FROM "temporary_policy_checks"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_policy_checks"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_policy_checks_run" ON "policy_checks" ("run_id")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_run_jobs_evaluation"
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
                "created_at" datetime(3) NOT NULL,
                "evaluation_id" varchar(32)
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
                    "created_at",
                    "evaluation_id"
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
                "created_at",
                "evaluation_id"
            FROM "temporary_run_jobs"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_run_jobs"
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
            DROP INDEX "ix_run_jobs_heartbeat"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_run_jobs_claimable"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_run_jobs_phase"
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
                "created_at" datetime(3) NOT NULL,
                "evaluation_id" varchar(32),
                CONSTRAINT "fk_run_jobs_phase" FOREIGN KEY ("phase_id") REFERENCES "run_phases" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
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
                    "created_at",
                    "evaluation_id"
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
                "created_at",
                "evaluation_id"
            FROM "temporary_run_jobs"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_run_jobs"
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
            DROP INDEX "uq_teams_org_name"
        `);
    await queryRunner.query(`
            ALTER TABLE "teams"
                RENAME TO "temporary_teams"
        `);
    await queryRunner.query(`
            CREATE TABLE "teams" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "name" varchar(128) NOT NULL,
                "is_owners" boolean NOT NULL DEFAULT (0),
                "visibility" varchar(16) NOT NULL DEFAULT ('secret'),
                "manage_policies" boolean NOT NULL DEFAULT (0),
                "manage_workspaces" boolean NOT NULL DEFAULT (0),
                "manage_projects" boolean NOT NULL DEFAULT (0),
                "manage_providers" boolean NOT NULL DEFAULT (0),
                "read_workspaces" boolean NOT NULL DEFAULT (0),
                "read_projects" boolean NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_teams_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "teams"(
                    "id",
                    "organization_id",
                    "name",
                    "is_owners",
                    "visibility",
                    "manage_policies",
                    "manage_workspaces",
                    "manage_projects",
                    "manage_providers",
                    "read_workspaces",
                    "read_projects",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "organization_id",
                "name",
                "is_owners",
                "visibility",
                "manage_policies",
                "manage_workspaces",
                "manage_projects",
                "manage_providers",
                "read_workspaces",
                "read_projects",
                "created_at",
                "updated_at"
            FROM "temporary_teams"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_teams"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_teams_org_name" ON "teams" ("organization_id", "name")
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
                "created_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_run_jobs_phase" FOREIGN KEY ("phase_id") REFERENCES "run_phases" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
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
            DROP INDEX "ix_policy_outcomes_evaluation"
        `);
    await queryRunner.query(`
            DROP TABLE "policy_outcomes"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_policy_evaluations_check"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_policy_evaluations_outcome"
        `);
    await queryRunner.query(`
            DROP TABLE "policy_evaluations"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_policy_checks_run"
        `);
    await queryRunner.query(`
            DROP TABLE "policy_checks"
        `);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

export class PolicySets1795267202441 implements MigrationInterface {
  name = 'PolicySets1795267202441';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "policies" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "name" varchar(128) NOT NULL,
                "description" text,
                "kind" varchar(16) NOT NULL,
                "enforcement_level" varchar(16) NOT NULL,
                "query" varchar(512),
                "code_size" integer,
                "code_sha256" varchar(64),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_policies_org_name" ON "policies" ("organization_id", "name")
        `);
    await queryRunner.query(`
            CREATE TABLE "policy_sets" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "name" varchar(128) NOT NULL,
                "description" text,
                "global" boolean NOT NULL DEFAULT (0),
                "kind" varchar(16) NOT NULL,
                "overridable" boolean NOT NULL DEFAULT (0),
                "agent_enabled" boolean NOT NULL DEFAULT (0),
                "policy_tool_version" varchar(64) NOT NULL,
                "vcs_identifier" varchar(255),
                "vcs_branch" varchar(255),
                "vcs_oauth_token_id" varchar(64),
                "vcs_app_installation_id" varchar(64),
                "vcs_ingress_submodules" boolean NOT NULL DEFAULT (0),
                "policies_path" varchar(255),
                "upload_versioned" boolean NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_policy_sets_org_name" ON "policy_sets" ("organization_id", "name")
        `);
    await queryRunner.query(`
            CREATE TABLE "policy_set_policies" (
                "policy_set_id" varchar(32) NOT NULL,
                "policy_id" varchar(32) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                PRIMARY KEY ("policy_set_id", "policy_id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_policy_set_policies_policy" ON "policy_set_policies" ("policy_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "policy_set_projects" (
                "policy_set_id" varchar(32) NOT NULL,
                "project_id" varchar(32) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                PRIMARY KEY ("policy_set_id", "project_id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_policy_set_projects_project" ON "policy_set_projects" ("project_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "policy_set_versions" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "policy_set_id" varchar(32) NOT NULL,
                "source" varchar(16) NOT NULL,
                "status" varchar(16) NOT NULL,
                "error" text,
                "archive_size" integer,
                "archive_sha256" varchar(64),
                "ingressing_at" datetime(3),
                "ready_at" datetime(3),
                "errored_at" datetime(3),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_policy_set_versions_set_created" ON "policy_set_versions" ("policy_set_id", "created_at")
        `);
    await queryRunner.query(`
            CREATE TABLE "policy_set_workspace_exclusions" (
                "policy_set_id" varchar(32) NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                PRIMARY KEY ("policy_set_id", "workspace_id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_policy_set_workspace_exclusions_workspace" ON "policy_set_workspace_exclusions" ("workspace_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "policy_set_workspaces" (
                "policy_set_id" varchar(32) NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                PRIMARY KEY ("policy_set_id", "workspace_id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_policy_set_workspaces_workspace" ON "policy_set_workspaces" ("workspace_id")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_policies_org_name"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_policies" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "name" varchar(128) NOT NULL,
                "description" text,
                "kind" varchar(16) NOT NULL,
                "enforcement_level" varchar(16) NOT NULL,
                "query" varchar(512),
                "code_size" integer,
                "code_sha256" varchar(64),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_policies_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_policies"(
                    "id",
                    "organization_id",
                    "name",
                    "description",
                    "kind",
                    "enforcement_level",
                    "query",
                    "code_size",
                    "code_sha256",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "organization_id",
                "name",
                "description",
                "kind",
                "enforcement_level",
                "query",
                "code_size",
                "code_sha256",
                "created_at",
                "updated_at"
            FROM "policies"
        `);
    await queryRunner.query(`
            DROP TABLE "policies"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_policies"
                RENAME TO "policies"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_policies_org_name" ON "policies" ("organization_id", "name")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_policy_sets_org_name"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_policy_sets" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "name" varchar(128) NOT NULL,
                "description" text,
                "global" boolean NOT NULL DEFAULT (0),
                "kind" varchar(16) NOT NULL,
                "overridable" boolean NOT NULL DEFAULT (0),
                "agent_enabled" boolean NOT NULL DEFAULT (0),
                "policy_tool_version" varchar(64) NOT NULL,
                "vcs_identifier" varchar(255),
                "vcs_branch" varchar(255),
                "vcs_oauth_token_id" varchar(64),
                "vcs_app_installation_id" varchar(64),
                "vcs_ingress_submodules" boolean NOT NULL DEFAULT (0),
                "policies_path" varchar(255),
                "upload_versioned" boolean NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_policy_sets_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_policy_sets"(
                    "id",
                    "organization_id",
                    "name",
                    "description",
                    "global",
                    "kind",
                    "overridable",
                    "agent_enabled",
                    "policy_tool_version",
                    "vcs_identifier",
                    "vcs_branch",
                    "vcs_oauth_token_id",
                    "vcs_app_installation_id",
                    "vcs_ingress_submodules",
                    "policies_path",
                    "upload_versioned",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "organization_id",
                "name",
                "description",
                "global",
                "kind",
                "overridable",
                "agent_enabled",
                "policy_tool_version",
                "vcs_identifier",
                "vcs_branch",
                "vcs_oauth_token_id",
                "vcs_app_installation_id",
                "vcs_ingress_submodules",
                "policies_path",
                "upload_versioned",
                "created_at",
                "updated_at"
            FROM "policy_sets"
        `);
    await queryRunner.query(`
            DROP TABLE "policy_sets"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_policy_sets"
                RENAME TO "policy_sets"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_policy_sets_org_name" ON "policy_sets" ("organization_id", "name")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_policy_set_policies_policy"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_policy_set_policies" (
                "policy_set_id" varchar(32) NOT NULL,
                "policy_id" varchar(32) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_policy_set_policies_set" FOREIGN KEY ("policy_set_id") REFERENCES "policy_sets" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "fk_policy_set_policies_policy" FOREIGN KEY ("policy_id") REFERENCES "policies" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                PRIMARY KEY ("policy_set_id", "policy_id")
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_policy_set_policies"("policy_set_id", "policy_id", "created_at")
            SELECT "policy_set_id",
                "policy_id",
                "created_at"
            FROM "policy_set_policies"
        `);
    await queryRunner.query(`
            DROP TABLE "policy_set_policies"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_policy_set_policies"
                RENAME TO "policy_set_policies"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_policy_set_policies_policy" ON "policy_set_policies" ("policy_id")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_policy_set_projects_project"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_policy_set_projects" (
                "policy_set_id" varchar(32) NOT NULL,
                "project_id" varchar(32) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_policy_set_projects_set" FOREIGN KEY ("policy_set_id") REFERENCES "policy_sets" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "fk_policy_set_projects_project" FOREIGN KEY ("project_id") REFERENCES "projects" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                PRIMARY KEY ("policy_set_id", "project_id")
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_policy_set_projects"("policy_set_id", "project_id", "created_at")
            SELECT "policy_set_id",
                "project_id",
                "created_at"
            FROM "policy_set_projects"
        `);
    await queryRunner.query(`
            DROP TABLE "policy_set_projects"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_policy_set_projects"
                RENAME TO "policy_set_projects"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_policy_set_projects_project" ON "policy_set_projects" ("project_id")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_policy_set_versions_set_created"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_policy_set_versions" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "policy_set_id" varchar(32) NOT NULL,
                "source" varchar(16) NOT NULL,
                "status" varchar(16) NOT NULL,
                "error" text,
                "archive_size" integer,
                "archive_sha256" varchar(64),
                "ingressing_at" datetime(3),
                "ready_at" datetime(3),
                "errored_at" datetime(3),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_policy_set_versions_set" FOREIGN KEY ("policy_set_id") REFERENCES "policy_sets" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_policy_set_versions"(
                    "id",
                    "policy_set_id",
                    "source",
                    "status",
                    "error",
                    "archive_size",
                    "archive_sha256",
                    "ingressing_at",
                    "ready_at",
                    "errored_at",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "policy_set_id",
                "source",
                "status",
                "error",
                "archive_size",
                "archive_sha256",
                "ingressing_at",
                "ready_at",
                "errored_at",
                "created_at",
                "updated_at"
            FROM "policy_set_versions"
        `);
    await queryRunner.query(`
            DROP TABLE "policy_set_versions"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_policy_set_versions"
                RENAME TO "policy_set_versions"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_policy_set_versions_set_created" ON "policy_set_versions" ("policy_set_id", "created_at")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_policy_set_workspace_exclusions_workspace"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_policy_set_workspace_exclusions" (
                "policy_set_id" varchar(32) NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_policy_set_workspace_exclusions_set" FOREIGN KEY ("policy_set_id") REFERENCES "policy_sets" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "fk_policy_set_workspace_exclusions_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                PRIMARY KEY ("policy_set_id", "workspace_id")
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_policy_set_workspace_exclusions"("policy_set_id", "workspace_id", "created_at")
            SELECT "policy_set_id",
                "workspace_id",
                "created_at"
            FROM "policy_set_workspace_exclusions"
        `);
    await queryRunner.query(`
            DROP TABLE "policy_set_workspace_exclusions"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_policy_set_workspace_exclusions"
                RENAME TO "policy_set_workspace_exclusions"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_policy_set_workspace_exclusions_workspace" ON "policy_set_workspace_exclusions" ("workspace_id")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_policy_set_workspaces_workspace"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_policy_set_workspaces" (
                "policy_set_id" varchar(32) NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_policy_set_workspaces_set" FOREIGN KEY ("policy_set_id") REFERENCES "policy_sets" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "fk_policy_set_workspaces_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                PRIMARY KEY ("policy_set_id", "workspace_id")
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_policy_set_workspaces"("policy_set_id", "workspace_id", "created_at")
            SELECT "policy_set_id",
                "workspace_id",
                "created_at"
            FROM "policy_set_workspaces"
        `);
    await queryRunner.query(`
            DROP TABLE "policy_set_workspaces"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_policy_set_workspaces"
                RENAME TO "policy_set_workspaces"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_policy_set_workspaces_workspace" ON "policy_set_workspaces" ("workspace_id")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_policy_set_workspaces_workspace"
        `);
    await queryRunner.query(`
            ALTER TABLE "policy_set_workspaces"
                RENAME TO "temporary_policy_set_workspaces"
        `);
    await queryRunner.query(`
            CREATE TABLE "policy_set_workspaces" (
                "policy_set_id" varchar(32) NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                PRIMARY KEY ("policy_set_id", "workspace_id")
            )
        `);
    await queryRunner.query(`
            INSERT INTO "policy_set_workspaces"("policy_set_id", "workspace_id", "created_at")
            SELECT "policy_set_id",
                "workspace_id",
                "created_at"
            FROM "temporary_policy_set_workspaces"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_policy_set_workspaces"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_policy_set_workspaces_workspace" ON "policy_set_workspaces" ("workspace_id")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_policy_set_workspace_exclusions_workspace"
        `);
    await queryRunner.query(`
            ALTER TABLE "policy_set_workspace_exclusions"
                RENAME TO "temporary_policy_set_workspace_exclusions"
        `);
    await queryRunner.query(`
            CREATE TABLE "policy_set_workspace_exclusions" (
                "policy_set_id" varchar(32) NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                PRIMARY KEY ("policy_set_id", "workspace_id")
            )
        `);
    await queryRunner.query(`
            INSERT INTO "policy_set_workspace_exclusions"("policy_set_id", "workspace_id", "created_at")
            SELECT "policy_set_id",
                "workspace_id",
                "created_at"
            FROM "temporary_policy_set_workspace_exclusions"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_policy_set_workspace_exclusions"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_policy_set_workspace_exclusions_workspace" ON "policy_set_workspace_exclusions" ("workspace_id")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_policy_set_versions_set_created"
        `);
    await queryRunner.query(`
            ALTER TABLE "policy_set_versions"
                RENAME TO "temporary_policy_set_versions"
        `);
    await queryRunner.query(`
            CREATE TABLE "policy_set_versions" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "policy_set_id" varchar(32) NOT NULL,
                "source" varchar(16) NOT NULL,
                "status" varchar(16) NOT NULL,
                "error" text,
                "archive_size" integer,
                "archive_sha256" varchar(64),
                "ingressing_at" datetime(3),
                "ready_at" datetime(3),
                "errored_at" datetime(3),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "policy_set_versions"(
                    "id",
                    "policy_set_id",
                    "source",
                    "status",
                    "error",
                    "archive_size",
                    "archive_sha256",
                    "ingressing_at",
                    "ready_at",
                    "errored_at",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "policy_set_id",
                "source",
                "status",
                "error",
                "archive_size",
                "archive_sha256",
                "ingressing_at",
                "ready_at",
                "errored_at",
                "created_at",
                "updated_at"
            FROM "temporary_policy_set_versions"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_policy_set_versions"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_policy_set_versions_set_created" ON "policy_set_versions" ("policy_set_id", "created_at")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_policy_set_projects_project"
        `);
    await queryRunner.query(`
            ALTER TABLE "policy_set_projects"
                RENAME TO "temporary_policy_set_projects"
        `);
    await queryRunner.query(`
            CREATE TABLE "policy_set_projects" (
                "policy_set_id" varchar(32) NOT NULL,
                "project_id" varchar(32) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                PRIMARY KEY ("policy_set_id", "project_id")
            )
        `);
    await queryRunner.query(`
            INSERT INTO "policy_set_projects"("policy_set_id", "project_id", "created_at")
            SELECT "policy_set_id",
                "project_id",
                "created_at"
            FROM "temporary_policy_set_projects"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_policy_set_projects"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_policy_set_projects_project" ON "policy_set_projects" ("project_id")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_policy_set_policies_policy"
        `);
    await queryRunner.query(`
            ALTER TABLE "policy_set_policies"
                RENAME TO "temporary_policy_set_policies"
        `);
    await queryRunner.query(`
            CREATE TABLE "policy_set_policies" (
                "policy_set_id" varchar(32) NOT NULL,
                "policy_id" varchar(32) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                PRIMARY KEY ("policy_set_id", "policy_id")
            )
        `);
    await queryRunner.query(`
            INSERT INTO "policy_set_policies"("policy_set_id", "policy_id", "created_at")
            SELECT "policy_set_id",
                "policy_id",
                "created_at"
            FROM "temporary_policy_set_policies"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_policy_set_policies"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_policy_set_policies_policy" ON "policy_set_policies" ("policy_id")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_policy_sets_org_name"
        `);
    await queryRunner.query(`
            ALTER TABLE "policy_sets"
                RENAME TO "temporary_policy_sets"
        `);
    await queryRunner.query(`
            CREATE TABLE "policy_sets" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "name" varchar(128) NOT NULL,
                "description" text,
                "global" boolean NOT NULL DEFAULT (0),
                "kind" varchar(16) NOT NULL,
                "overridable" boolean NOT NULL DEFAULT (0),
                "agent_enabled" boolean NOT NULL DEFAULT (0),
                "policy_tool_version" varchar(64) NOT NULL,
                "vcs_identifier" varchar(255),
                "vcs_branch" varchar(255),
                "vcs_oauth_token_id" varchar(64),
                "vcs_app_installation_id" varchar(64),
                "vcs_ingress_submodules" boolean NOT NULL DEFAULT (0),
                "policies_path" varchar(255),
                "upload_versioned" boolean NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "policy_sets"(
                    "id",
                    "organization_id",
                    "name",
                    "description",
                    "global",
                    "kind",
                    "overridable",
                    "agent_enabled",
                    "policy_tool_version",
                    "vcs_identifier",
                    "vcs_branch",
                    "vcs_oauth_token_id",
                    "vcs_app_installation_id",
                    "vcs_ingress_submodules",
                    "policies_path",
                    "upload_versioned",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "organization_id",
                "name",
                "description",
                "global",
                "kind",
                "overridable",
                "agent_enabled",
                "policy_tool_version",
                "vcs_identifier",
                "vcs_branch",
                "vcs_oauth_token_id",
                "vcs_app_installation_id",
                "vcs_ingress_submodules",
                "policies_path",
                "upload_versioned",
                "created_at",
                "updated_at"
            FROM "temporary_policy_sets"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_policy_sets"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_policy_sets_org_name" ON "policy_sets" ("organization_id", "name")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_policies_org_name"
        `);
    await queryRunner.query(`
            ALTER TABLE "policies"
                RENAME TO "temporary_policies"
        `);
    await queryRunner.query(`
            CREATE TABLE "policies" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "name" varchar(128) NOT NULL,
                "description" text,
                "kind" varchar(16) NOT NULL,
                "enforcement_level" varchar(16) NOT NULL,
                "query" varchar(512),
                "code_size" integer,
                "code_sha256" varchar(64),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "policies"(
                    "id",
                    "organization_id",
                    "name",
                    "description",
                    "kind",
                    "enforcement_level",
                    "query",
                    "code_size",
                    "code_sha256",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "organization_id",
                "name",
                "description",
                "kind",
                "enforcement_level",
                "query",
                "code_size",
                "code_sha256",
                "created_at",
                "updated_at"
            FROM "temporary_policies"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_policies"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_policies_org_name" ON "policies" ("organization_id", "name")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_policy_set_workspaces_workspace"
        `);
    await queryRunner.query(`
            DROP TABLE "policy_set_workspaces"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_policy_set_workspace_exclusions_workspace"
        `);
    await queryRunner.query(`
            DROP TABLE "policy_set_workspace_exclusions"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_policy_set_versions_set_created"
        `);
    await queryRunner.query(`
            DROP TABLE "policy_set_versions"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_policy_set_projects_project"
        `);
    await queryRunner.query(`
            DROP TABLE "policy_set_projects"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_policy_set_policies_policy"
        `);
    await queryRunner.query(`
            DROP TABLE "policy_set_policies"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_policy_sets_org_name"
        `);
    await queryRunner.query(`
            DROP TABLE "policy_sets"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_policies_org_name"
        `);
    await queryRunner.query(`
            DROP TABLE "policies"
        `);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

export class StateVersions1795762986386 implements MigrationInterface {
  name = 'StateVersions1795762986386';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "state_versions" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                "status" varchar(16) NOT NULL,
                "serial" bigint NOT NULL,
                "lineage" varchar(128),
                "md5" varchar(32) NOT NULL,
                "run_id" varchar(32),
                "created_by_id" varchar(32),
                "rollback_of_id" varchar(32),
                "state_blob_key" varchar(255),
                "state_data_key" varchar(255),
                "size" integer,
                "json_state_blob_key" varchar(255),
                "json_state_data_key" varchar(255),
                "json_state_size" integer,
                "state_format" integer,
                "terraform_version" varchar(64),
                "resources" json,
                "modules" json,
                "providers" json,
                "resource_count" integer NOT NULL DEFAULT (0),
                "resources_processed" boolean NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_state_versions_workspace_status" ON "state_versions" ("workspace_id", "status")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_state_versions_workspace_created" ON "state_versions" ("workspace_id", "created_at")
        `);
    await queryRunner.query(`
            CREATE TABLE "state_version_outputs" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "state_version_id" varchar(32) NOT NULL,
                "name" varchar(255) NOT NULL,
                "sensitive" boolean NOT NULL DEFAULT (0),
                "type" varchar(16) NOT NULL,
                "detailed_type" json NOT NULL,
                "sealed_value" json NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_state_version_outputs_version_name" ON "state_version_outputs" ("state_version_id", "name")
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
                "current_state_version_id" varchar(32),
                "resource_count" integer NOT NULL DEFAULT (0),
                CONSTRAINT "fk_workspaces_project" FOREIGN KEY ("project_id") REFERENCES "projects" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION,
                CONSTRAINT "fk_workspaces_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "fk_workspaces_agent_pool" FOREIGN KEY ("agent_pool_id") REFERENCES "agent_pools" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION
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
                    "auto_apply_run_trigger",
                    "locked",
                    "locked_by_type",
                    "locked_by_id"
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
                "auto_apply_run_trigger",
                "locked",
                "locked_by_type",
                "locked_by_id"
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
            CREATE UNIQUE INDEX "uq_workspaces_org_name" ON "workspaces" ("organization_id", "name")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_workspaces_project" ON "workspaces" ("project_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_workspaces_agent_pool" ON "workspaces" ("agent_pool_id")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_state_versions_workspace_status"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_state_versions_workspace_created"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_state_versions" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                "status" varchar(16) NOT NULL,
                "serial" bigint NOT NULL,
                "lineage" varchar(128),
                "md5" varchar(32) NOT NULL,
                "run_id" varchar(32),
                "created_by_id" varchar(32),
                "rollback_of_id" varchar(32),
                "state_blob_key" varchar(255),
                "state_data_key" varchar(255),
                "size" integer,
                "json_state_blob_key" varchar(255),
                "json_state_data_key" varchar(255),
                "json_state_size" integer,
                "state_format" integer,
                "terraform_version" varchar(64),
                "resources" json,
                "modules" json,
                "providers" json,
                "resource_count" integer NOT NULL DEFAULT (0),
                "resources_processed" boolean NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_state_versions_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "fk_state_versions_run" FOREIGN KEY ("run_id") REFERENCES "runs" ("id") ON DELETE
                SET NULL ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_state_versions"(
                    "id",
                    "workspace_id",
                    "status",
                    "serial",
                    "lineage",
                    "md5",
                    "run_id",
                    "created_by_id",
                    "rollback_of_id",
                    "state_blob_key",
                    "state_data_key",
                    "size",
                    "json_state_blob_key",
                    "json_state_data_key",
                    "json_state_size",
                    "state_format",
                    "terraform_version",
                    "resources",
                    "modules",
                    "providers",
                    "resource_count",
                    "resources_processed",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "workspace_id",
                "status",
                "serial",
                "lineage",
                "md5",
                "run_id",
                "created_by_id",
                "rollback_of_id",
                "state_blob_key",
                "state_data_key",
                "size",
                "json_state_blob_key",
                "json_state_data_key",
                "json_state_size",
                "state_format",
                "terraform_version",
                "resources",
                "modules",
                "providers",
                "resource_count",
                "resources_processed",
                "created_at",
                "updated_at"
            FROM "state_versions"
        `);
    await queryRunner.query(`
            DROP TABLE "state_versions"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_state_versions"
                RENAME TO "state_versions"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_state_versions_workspace_status" ON "state_versions" ("workspace_id", "status")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_state_versions_workspace_created" ON "state_versions" ("workspace_id", "created_at")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_state_version_outputs_version_name"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_state_version_outputs" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "state_version_id" varchar(32) NOT NULL,
                "name" varchar(255) NOT NULL,
                "sensitive" boolean NOT NULL DEFAULT (0),
                "type" varchar(16) NOT NULL,
                "detailed_type" json NOT NULL,
                "sealed_value" json NOT NULL,
                CONSTRAINT "fk_state_version_outputs_version" FOREIGN KEY ("state_version_id") REFERENCES "state_versions" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_state_version_outputs"(
                    "id",
                    "state_version_id",
                    "name",
                    "sensitive",
                    "type",
                    "detailed_type",
                    "sealed_value"
                )
            SELECT "id",
                "state_version_id",
                "name",
                "sensitive",
                "type",
                "detailed_type",
                "sealed_value"
            FROM "state_version_outputs"
        `);
    await queryRunner.query(`
            DROP TABLE "state_version_outputs"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_state_version_outputs"
                RENAME TO "state_version_outputs"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_state_version_outputs_version_name" ON "state_version_outputs" ("state_version_id", "name")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_state_version_outputs_version_name"
        `);
    await queryRunner.query(`
            ALTER TABLE "state_version_outputs"
                RENAME TO "temporary_state_version_outputs"
        `);
    await queryRunner.query(`
            CREATE TABLE "state_version_outputs" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "state_version_id" varchar(32) NOT NULL,
                "name" varchar(255) NOT NULL,
                "sensitive" boolean NOT NULL DEFAULT (0),
                "type" varchar(16) NOT NULL,
                "detailed_type" json NOT NULL,
                "sealed_value" json NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "state_version_outputs"(
                    "id",
                    "state_version_id",
                    "name",
                    "sensitive",
                    "type",
                    "detailed_type",
                    "sealed_value"
                )
            SELECT "id",
                "state_version_id",
                "name",
                "sensitive",
                "type",
                "detailed_type",
                "sealed_value"
            FROM "temporary_state_version_outputs"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_state_version_outputs"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_state_version_outputs_version_name" ON "state_version_outputs" ("state_version_id", "name")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_state_versions_workspace_created"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_state_versions_workspace_status"
        `);
    await queryRunner.query(`
            ALTER TABLE "state_versions"
                RENAME TO "temporary_state_versions"
        `);
    await queryRunner.query(`
            CREATE TABLE "state_versions" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                "status" varchar(16) NOT NULL,
                "serial" bigint NOT NULL,
                "lineage" varchar(128),
                "md5" varchar(32) NOT NULL,
                "run_id" varchar(32),
                "created_by_id" varchar(32),
                "rollback_of_id" varchar(32),
                "state_blob_key" varchar(255),
                "state_data_key" varchar(255),
                "size" integer,
                "json_state_blob_key" varchar(255),
                "json_state_data_key" varchar(255),
                "json_state_size" integer,
                "state_format" integer,
                "terraform_version" varchar(64),
                "resources" json,
                "modules" json,
                "providers" json,
                "resource_count" integer NOT NULL DEFAULT (0),
                "resources_processed" boolean NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "state_versions"(
                    "id",
                    "workspace_id",
                    "status",
                    "serial",
                    "lineage",
                    "md5",
                    "run_id",
                    "created_by_id",
                    "rollback_of_id",
                    "state_blob_key",
                    "state_data_key",
                    "size",
                    "json_state_blob_key",
                    "json_state_data_key",
                    "json_state_size",
                    "state_format",
                    "terraform_version",
                    "resources",
                    "modules",
                    "providers",
                    "resource_count",
                    "resources_processed",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "workspace_id",
                "status",
                "serial",
                "lineage",
                "md5",
                "run_id",
                "created_by_id",
                "rollback_of_id",
                "state_blob_key",
                "state_data_key",
                "size",
                "json_state_blob_key",
                "json_state_data_key",
                "json_state_size",
                "state_format",
                "terraform_version",
                "resources",
                "modules",
                "providers",
                "resource_count",
                "resources_processed",
                "created_at",
                "updated_at"
            FROM "temporary_state_versions"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_state_versions"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_state_versions_workspace_created" ON "state_versions" ("workspace_id", "created_at")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_state_versions_workspace_status" ON "state_versions" ("workspace_id", "status")
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
                "locked" boolean NOT NULL DEFAULT (0),
                "locked_by_type" varchar(16),
                "locked_by_id" varchar(90),
                CONSTRAINT "fk_workspaces_project" FOREIGN KEY ("project_id") REFERENCES "projects" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION,
                CONSTRAINT "fk_workspaces_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "fk_workspaces_agent_pool" FOREIGN KEY ("agent_pool_id") REFERENCES "agent_pools" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION
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
                    "auto_apply_run_trigger",
                    "locked",
                    "locked_by_type",
                    "locked_by_id"
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
                "auto_apply_run_trigger",
                "locked",
                "locked_by_type",
                "locked_by_id"
            FROM "temporary_workspaces"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_workspaces"
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
            DROP INDEX "ix_state_version_outputs_version_name"
        `);
    await queryRunner.query(`
            DROP TABLE "state_version_outputs"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_state_versions_workspace_created"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_state_versions_workspace_status"
        `);
    await queryRunner.query(`
            DROP TABLE "state_versions"
        `);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

export class Variables1795773278385 implements MigrationInterface {
  name = 'Variables1795773278385';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "varsets" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "project_id" varchar(32),
                "name" varchar(128) NOT NULL,
                "description" varchar(512) NOT NULL,
                "global" boolean NOT NULL DEFAULT (0),
                "priority" boolean NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_varsets_org_name" ON "varsets" ("organization_id", "name")
        `);
    await queryRunner.query(`
            CREATE TABLE "variables" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "workspace_id" varchar(32),
                "varset_id" varchar(32),
                "key" varchar(128) NOT NULL,
                "key_digest" varchar(64) NOT NULL,
                "category" varchar(16) NOT NULL,
                "value" json,
                "sealed_value" json,
                "description" varchar(512) NOT NULL,
                "hcl" boolean NOT NULL DEFAULT (0),
                "sensitive" boolean NOT NULL DEFAULT (0),
                "version_id" varchar(64) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_variables_varset_key" ON "variables" ("varset_id", "category", "key_digest")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_variables_workspace_key" ON "variables" ("workspace_id", "category", "key_digest")
        `);
    await queryRunner.query(`
            CREATE TABLE "varset_workspaces" (
                "varset_id" varchar(32) NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                PRIMARY KEY ("varset_id", "workspace_id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_varset_workspaces_workspace" ON "varset_workspaces" ("workspace_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "varset_projects" (
                "varset_id" varchar(32) NOT NULL,
                "project_id" varchar(32) NOT NULL,
                PRIMARY KEY ("varset_id", "project_id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_varset_projects_project" ON "varset_projects" ("project_id")
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
                "manage_variable_sets" boolean NOT NULL DEFAULT (0),
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
                    "updated_at",
                    "manage_policy_overrides"
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
                "updated_at",
                "manage_policy_overrides"
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
            DROP INDEX "uq_varsets_org_name"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_varsets" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "project_id" varchar(32),
                "name" varchar(128) NOT NULL,
                "description" varchar(512) NOT NULL,
                "global" boolean NOT NULL DEFAULT (0),
                "priority" boolean NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_varsets_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "fk_varsets_project" FOREIGN KEY ("project_id") REFERENCES "projects" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_varsets"(
                    "id",
                    "organization_id",
                    "project_id",
                    "name",
                    "description",
                    "global",
                    "priority",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "organization_id",
                "project_id",
                "name",
                "description",
                "global",
                "priority",
                "created_at",
                "updated_at"
            FROM "varsets"
        `);
    await queryRunner.query(`
            DROP TABLE "varsets"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_varsets"
                RENAME TO "varsets"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_varsets_org_name" ON "varsets" ("organization_id", "name")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_variables_varset_key"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_variables_workspace_key"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_variables" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "workspace_id" varchar(32),
                "varset_id" varchar(32),
                "key" varchar(128) NOT NULL,
                "key_digest" varchar(64) NOT NULL,
                "category" varchar(16) NOT NULL,
                "value" json,
                "sealed_value" json,
                "description" varchar(512) NOT NULL,
                "hcl" boolean NOT NULL DEFAULT (0),
                "sensitive" boolean NOT NULL DEFAULT (0),
                "version_id" varchar(64) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_variables_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "fk_variables_varset" FOREIGN KEY ("varset_id") REFERENCES "varsets" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_variables"(
                    "id",
                    "workspace_id",
                    "varset_id",
                    "key",
                    "key_digest",
                    "category",
                    "value",
                    "sealed_value",
                    "description",
                    "hcl",
                    "sensitive",
                    "version_id",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "workspace_id",
                "varset_id",
                "key",
                "key_digest",
                "category",
                "value",
                "sealed_value",
                "description",
                "hcl",
                "sensitive",
                "version_id",
                "created_at",
                "updated_at"
            FROM "variables"
        `);
    await queryRunner.query(`
            DROP TABLE "variables"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_variables"
                RENAME TO "variables"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_variables_varset_key" ON "variables" ("varset_id", "category", "key_digest")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_variables_workspace_key" ON "variables" ("workspace_id", "category", "key_digest")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_varset_workspaces_workspace"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_varset_workspaces" (
                "varset_id" varchar(32) NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                CONSTRAINT "fk_varset_workspaces_varset" FOREIGN KEY ("varset_id") REFERENCES "varsets" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "fk_varset_workspaces_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                PRIMARY KEY ("varset_id", "workspace_id")
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_varset_workspaces"("varset_id", "workspace_id")
            SELECT "varset_id",
                "workspace_id"
            FROM "varset_workspaces"
        `);
    await queryRunner.query(`
            DROP TABLE "varset_workspaces"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_varset_workspaces"
                RENAME TO "varset_workspaces"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_varset_workspaces_workspace" ON "varset_workspaces" ("workspace_id")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_varset_projects_project"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_varset_projects" (
                "varset_id" varchar(32) NOT NULL,
                "project_id" varchar(32) NOT NULL,
                CONSTRAINT "fk_varset_projects_varset" FOREIGN KEY ("varset_id") REFERENCES "varsets" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "fk_varset_projects_project" FOREIGN KEY ("project_id") REFERENCES "projects" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                PRIMARY KEY ("varset_id", "project_id")
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_varset_projects"("varset_id", "project_id")
            SELECT "varset_id",
                "project_id"
            FROM "varset_projects"
        `);
    await queryRunner.query(`
            DROP TABLE "varset_projects"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_varset_projects"
                RENAME TO "varset_projects"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_varset_projects_project" ON "varset_projects" ("project_id")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_varset_projects_project"
        `);
    await queryRunner.query(`
            ALTER TABLE "varset_projects"
                RENAME TO "temporary_varset_projects"
        `);
    await queryRunner.query(`
            CREATE TABLE "varset_projects" (
                "varset_id" varchar(32) NOT NULL,
                "project_id" varchar(32) NOT NULL,
                PRIMARY KEY ("varset_id", "project_id")
            )
        `);
    await queryRunner.query(`
            INSERT INTO "varset_projects"("varset_id", "project_id")
            SELECT "varset_id",
                "project_id"
            FROM "temporary_varset_projects"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_varset_projects"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_varset_projects_project" ON "varset_projects" ("project_id")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_varset_workspaces_workspace"
        `);
    await queryRunner.query(`
            ALTER TABLE "varset_workspaces"
                RENAME TO "temporary_varset_workspaces"
        `);
    await queryRunner.query(`
            CREATE TABLE "varset_workspaces" (
                "varset_id" varchar(32) NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                PRIMARY KEY ("varset_id", "workspace_id")
            )
        `);
    await queryRunner.query(`
            INSERT INTO "varset_workspaces"("varset_id", "workspace_id")
            SELECT "varset_id",
                "workspace_id"
            FROM "temporary_varset_workspaces"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_varset_workspaces"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_varset_workspaces_workspace" ON "varset_workspaces" ("workspace_id")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_variables_workspace_key"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_variables_varset_key"
        `);
    await queryRunner.query(`
            ALTER TABLE "variables"
                RENAME TO "temporary_variables"
        `);
    await queryRunner.query(`
            CREATE TABLE "variables" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "workspace_id" varchar(32),
                "varset_id" varchar(32),
                "key" varchar(128) NOT NULL,
                "key_digest" varchar(64) NOT NULL,
                "category" varchar(16) NOT NULL,
                "value" json,
                "sealed_value" json,
                "description" varchar(512) NOT NULL,
                "hcl" boolean NOT NULL DEFAULT (0),
                "sensitive" boolean NOT NULL DEFAULT (0),
                "version_id" varchar(64) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "variables"(
                    "id",
                    "workspace_id",
                    "varset_id",
                    "key",
                    "key_digest",
                    "category",
                    "value",
                    "sealed_value",
                    "description",
                    "hcl",
                    "sensitive",
                    "version_id",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "workspace_id",
                "varset_id",
                "key",
                "key_digest",
                "category",
                "value",
                "sealed_value",
                "description",
                "hcl",
                "sensitive",
                "version_id",
                "created_at",
                "updated_at"
            FROM "temporary_variables"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_variables"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_variables_workspace_key" ON "variables" ("workspace_id", "category", "key_digest")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_variables_varset_key" ON "variables" ("varset_id", "category", "key_digest")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_varsets_org_name"
        `);
    await queryRunner.query(`
            ALTER TABLE "varsets"
                RENAME TO "temporary_varsets"
        `);
    await queryRunner.query(`
            CREATE TABLE "varsets" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "project_id" varchar(32),
                "name" varchar(128) NOT NULL,
                "description" varchar(512) NOT NULL,
                "global" boolean NOT NULL DEFAULT (0),
                "priority" boolean NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "varsets"(
                    "id",
                    "organization_id",
                    "project_id",
                    "name",
                    "description",
                    "global",
                    "priority",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "organization_id",
                "project_id",
                "name",
                "description",
                "global",
                "priority",
                "created_at",
                "updated_at"
            FROM "temporary_varsets"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_varsets"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_varsets_org_name" ON "varsets" ("organization_id", "name")
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
                "manage_policy_overrides" boolean NOT NULL DEFAULT (0),
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
                    "updated_at",
                    "manage_policy_overrides"
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
                "updated_at",
                "manage_policy_overrides"
            FROM "temporary_teams"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_teams"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_teams_org_name" ON "teams" ("organization_id", "name")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_varset_projects_project"
        `);
    await queryRunner.query(`
            DROP TABLE "varset_projects"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_varset_workspaces_workspace"
        `);
    await queryRunner.query(`
            DROP TABLE "varset_workspaces"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_variables_workspace_key"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_variables_varset_key"
        `);
    await queryRunner.query(`
            DROP TABLE "variables"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_varsets_org_name"
        `);
    await queryRunner.query(`
            DROP TABLE "varsets"
        `);
  }
}

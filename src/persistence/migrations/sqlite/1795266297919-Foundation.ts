import { MigrationInterface, QueryRunner } from 'typeorm';

export class Foundation1795266297919 implements MigrationInterface {
  name = 'Foundation1795266297919';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "system_settings" (
                "key" varchar(64) PRIMARY KEY NOT NULL,
                "value" text NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE TABLE "organizations" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "name" varchar(64) NOT NULL,
                "email" varchar(255) NOT NULL,
                "edition" varchar(16) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_organizations_name" ON "organizations" ("name")
        `);
    await queryRunner.query(`
            CREATE TABLE "projects" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "name" varchar(64) NOT NULL,
                "description" text,
                "is_default" boolean NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_projects_org_name" ON "projects" ("organization_id", "name")
        `);
    await queryRunner.query(`
            CREATE TABLE "users" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "username" varchar(64) NOT NULL,
                "email" varchar(255) NOT NULL,
                "password_hash" varchar(255) NOT NULL,
                "is_site_admin" boolean NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_users_username" ON "users" ("username")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_users_email" ON "users" ("email")
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
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_teams_org_name" ON "teams" ("organization_id", "name")
        `);
    await queryRunner.query(`
            CREATE TABLE "team_memberships" (
                "team_id" varchar(32) NOT NULL,
                "user_id" varchar(32) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                PRIMARY KEY ("team_id", "user_id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_team_memberships_user" ON "team_memberships" ("user_id")
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
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_workspaces_project" ON "workspaces" ("project_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_workspaces_org_name" ON "workspaces" ("organization_id", "name")
        `);
    await queryRunner.query(`
            CREATE TABLE "team_workspaces" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "team_id" varchar(32) NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                "access" varchar(8) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_team_workspaces_ws" ON "team_workspaces" ("workspace_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_team_workspaces_team_ws" ON "team_workspaces" ("team_id", "workspace_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "tokens" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "kind" varchar(16) NOT NULL,
                "digest" varchar(64) NOT NULL,
                "user_id" varchar(32),
                "team_id" varchar(32),
                "organization_id" varchar(32),
                "description" varchar(255),
                "expires_at" datetime(3),
                "created_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_tokens_digest" ON "tokens" ("digest")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_tokens_organization" ON "tokens" ("organization_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_tokens_team" ON "tokens" ("team_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_tokens_user" ON "tokens" ("user_id")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_projects_org_name"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_projects" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "name" varchar(64) NOT NULL,
                "description" text,
                "is_default" boolean NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_projects_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_projects"(
                    "id",
                    "organization_id",
                    "name",
                    "description",
                    "is_default",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "organization_id",
                "name",
                "description",
                "is_default",
                "created_at",
                "updated_at"
            FROM "projects"
        `);
    await queryRunner.query(`
            DROP TABLE "projects"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_projects"
                RENAME TO "projects"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_projects_org_name" ON "projects" ("organization_id", "name")
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
            DROP INDEX "ix_team_memberships_user"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_team_memberships" (
                "team_id" varchar(32) NOT NULL,
                "user_id" varchar(32) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_team_memberships_team" FOREIGN KEY ("team_id") REFERENCES "teams" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "fk_team_memberships_user" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                PRIMARY KEY ("team_id", "user_id")
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_team_memberships"("team_id", "user_id", "created_at")
            SELECT "team_id",
                "user_id",
                "created_at"
            FROM "team_memberships"
        `);
    await queryRunner.query(`
            DROP TABLE "team_memberships"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_team_memberships"
                RENAME TO "team_memberships"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_team_memberships_user" ON "team_memberships" ("user_id")
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
                    "updated_at"
                )
            SELECT "id",
                "organization_id",
                "project_id",
                "name",
                "description",
                "engine_version",
                "created_at",
                "updated_at"
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
            CREATE INDEX "ix_workspaces_project" ON "workspaces" ("project_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_workspaces_org_name" ON "workspaces" ("organization_id", "name")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_team_workspaces_ws"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_team_workspaces_team_ws"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_team_workspaces" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "team_id" varchar(32) NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                "access" varchar(8) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_team_workspaces_team" FOREIGN KEY ("team_id") REFERENCES "teams" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "fk_team_workspaces_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_team_workspaces"(
                    "id",
                    "team_id",
                    "workspace_id",
                    "access",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "team_id",
                "workspace_id",
                "access",
                "created_at",
                "updated_at"
            FROM "team_workspaces"
        `);
    await queryRunner.query(`
            DROP TABLE "team_workspaces"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_team_workspaces"
                RENAME TO "team_workspaces"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_team_workspaces_ws" ON "team_workspaces" ("workspace_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_team_workspaces_team_ws" ON "team_workspaces" ("team_id", "workspace_id")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_tokens_digest"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_tokens_organization"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_tokens_team"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_tokens_user"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_tokens" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "kind" varchar(16) NOT NULL,
                "digest" varchar(64) NOT NULL,
                "user_id" varchar(32),
                "team_id" varchar(32),
                "organization_id" varchar(32),
                "description" varchar(255),
                "expires_at" datetime(3),
                "created_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_tokens_user" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "fk_tokens_team" FOREIGN KEY ("team_id") REFERENCES "teams" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "fk_tokens_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_tokens"(
                    "id",
                    "kind",
                    "digest",
                    "user_id",
                    "team_id",
                    "organization_id",
                    "description",
                    "expires_at",
                    "created_at"
                )
            SELECT "id",
                "kind",
                "digest",
                "user_id",
                "team_id",
                "organization_id",
                "description",
                "expires_at",
                "created_at"
            FROM "tokens"
        `);
    await queryRunner.query(`
            DROP TABLE "tokens"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_tokens"
                RENAME TO "tokens"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_tokens_digest" ON "tokens" ("digest")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_tokens_organization" ON "tokens" ("organization_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_tokens_team" ON "tokens" ("team_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_tokens_user" ON "tokens" ("user_id")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_tokens_user"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_tokens_team"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_tokens_organization"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_tokens_digest"
        `);
    await queryRunner.query(`
            ALTER TABLE "tokens"
                RENAME TO "temporary_tokens"
        `);
    await queryRunner.query(`
            CREATE TABLE "tokens" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "kind" varchar(16) NOT NULL,
                "digest" varchar(64) NOT NULL,
                "user_id" varchar(32),
                "team_id" varchar(32),
                "organization_id" varchar(32),
                "description" varchar(255),
                "expires_at" datetime(3),
                "created_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "tokens"(
                    "id",
                    "kind",
                    "digest",
                    "user_id",
                    "team_id",
                    "organization_id",
                    "description",
                    "expires_at",
                    "created_at"
                )
            SELECT "id",
                "kind",
                "digest",
                "user_id",
                "team_id",
                "organization_id",
                "description",
                "expires_at",
                "created_at"
            FROM "temporary_tokens"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_tokens"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_tokens_user" ON "tokens" ("user_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_tokens_team" ON "tokens" ("team_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_tokens_organization" ON "tokens" ("organization_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_tokens_digest" ON "tokens" ("digest")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_team_workspaces_team_ws"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_team_workspaces_ws"
        `);
    await queryRunner.query(`
            ALTER TABLE "team_workspaces"
                RENAME TO "temporary_team_workspaces"
        `);
    await queryRunner.query(`
            CREATE TABLE "team_workspaces" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "team_id" varchar(32) NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                "access" varchar(8) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "team_workspaces"(
                    "id",
                    "team_id",
                    "workspace_id",
                    "access",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "team_id",
                "workspace_id",
                "access",
                "created_at",
                "updated_at"
            FROM "temporary_team_workspaces"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_team_workspaces"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_team_workspaces_team_ws" ON "team_workspaces" ("team_id", "workspace_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_team_workspaces_ws" ON "team_workspaces" ("workspace_id")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_workspaces_org_name"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_workspaces_project"
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
                "updated_at" datetime(3) NOT NULL
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
                    "updated_at"
                )
            SELECT "id",
                "organization_id",
                "project_id",
                "name",
                "description",
                "engine_version",
                "created_at",
                "updated_at"
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
            DROP INDEX "ix_team_memberships_user"
        `);
    await queryRunner.query(`
            ALTER TABLE "team_memberships"
                RENAME TO "temporary_team_memberships"
        `);
    await queryRunner.query(`
            CREATE TABLE "team_memberships" (
                "team_id" varchar(32) NOT NULL,
                "user_id" varchar(32) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                PRIMARY KEY ("team_id", "user_id")
            )
        `);
    await queryRunner.query(`
            INSERT INTO "team_memberships"("team_id", "user_id", "created_at")
            SELECT "team_id",
                "user_id",
                "created_at"
            FROM "temporary_team_memberships"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_team_memberships"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_team_memberships_user" ON "team_memberships" ("user_id")
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
                "updated_at" datetime(3) NOT NULL
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
            DROP INDEX "uq_projects_org_name"
        `);
    await queryRunner.query(`
            ALTER TABLE "projects"
                RENAME TO "temporary_projects"
        `);
    await queryRunner.query(`
            CREATE TABLE "projects" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "name" varchar(64) NOT NULL,
                "description" text,
                "is_default" boolean NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "projects"(
                    "id",
                    "organization_id",
                    "name",
                    "description",
                    "is_default",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "organization_id",
                "name",
                "description",
                "is_default",
                "created_at",
                "updated_at"
            FROM "temporary_projects"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_projects"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_projects_org_name" ON "projects" ("organization_id", "name")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_tokens_user"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_tokens_team"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_tokens_organization"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_tokens_digest"
        `);
    await queryRunner.query(`
            DROP TABLE "tokens"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_team_workspaces_team_ws"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_team_workspaces_ws"
        `);
    await queryRunner.query(`
            DROP TABLE "team_workspaces"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_workspaces_org_name"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_workspaces_project"
        `);
    await queryRunner.query(`
            DROP TABLE "workspaces"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_team_memberships_user"
        `);
    await queryRunner.query(`
            DROP TABLE "team_memberships"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_teams_org_name"
        `);
    await queryRunner.query(`
            DROP TABLE "teams"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_users_email"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_users_username"
        `);
    await queryRunner.query(`
            DROP TABLE "users"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_projects_org_name"
        `);
    await queryRunner.query(`
            DROP TABLE "projects"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_organizations_name"
        `);
    await queryRunner.query(`
            DROP TABLE "organizations"
        `);
    await queryRunner.query(`
            DROP TABLE "system_settings"
        `);
  }
}

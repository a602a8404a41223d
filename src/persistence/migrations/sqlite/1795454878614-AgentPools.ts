import { MigrationInterface, QueryRunner } from 'typeorm';

export class AgentPools1795454878614 implements MigrationInterface {
  name = 'AgentPools1795454878614';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "agent_pools" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "name" varchar(90) NOT NULL,
                "organization_scoped" boolean NOT NULL DEFAULT (1),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_agent_pools_org_name" ON "agent_pools" ("organization_id", "name")
        `);
    await queryRunner.query(`
            CREATE TABLE "agent_pool_allowed_workspaces" (
                "pool_id" varchar(32) NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                PRIMARY KEY ("pool_id", "workspace_id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_agent_pool_allowed_workspaces_workspace" ON "agent_pool_allowed_workspaces" ("workspace_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "agent_tokens" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "pool_id" varchar(32) NOT NULL,
                "digest" varchar(64) NOT NULL,
                "description" varchar(255) NOT NULL,
                "created_by_id" varchar(32),
                "last_used_at" datetime(3),
                "created_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_agent_tokens_digest" ON "agent_tokens" ("digest")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_agent_tokens_pool" ON "agent_tokens" ("pool_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "agents" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "pool_id" varchar(32) NOT NULL,
                "token_id" varchar(32),
                "name" varchar(255) NOT NULL,
                "status" varchar(16) NOT NULL,
                "ip_address" varchar(64),
                "last_ping_at" datetime(3) NOT NULL,
                "created_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_agents_pool" ON "agents" ("pool_id", "last_ping_at")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_workspaces_org_name"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_workspaces_project"
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
                CONSTRAINT "fk_workspaces_project" FOREIGN KEY ("project_id") REFERENCES "projects" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION,
                CONSTRAINT "fk_workspaces_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
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
            CREATE UNIQUE INDEX "uq_workspaces_org_name" ON "workspaces" ("organization_id", "name")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_workspaces_project" ON "workspaces" ("project_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_workspaces_agent_pool" ON "workspaces" ("agent_pool_id")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_agent_pools_org_name"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_agent_pools" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "name" varchar(90) NOT NULL,
                "organization_scoped" boolean NOT NULL DEFAULT (1),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_agent_pools_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_agent_pools"(
                    "id",
                    "organization_id",
                    "name",
                    "organization_scoped",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "organization_id",
                "name",
                "organization_scoped",
                "created_at",
                "updated_at"
            FROM "agent_pools"
        `);
    await queryRunner.query(`
            DROP TABLE "agent_pools"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_agent_pools"
                RENAME TO "agent_pools"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_agent_pools_org_name" ON "agent_pools" ("organization_id", "name")
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
            CREATE UNIQUE INDEX "uq_workspaces_org_name" ON "workspaces" ("organization_id", "name")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_workspaces_project" ON "workspaces" ("project_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_workspaces_agent_pool" ON "workspaces" ("agent_pool_id")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_agent_pool_allowed_workspaces_workspace"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_agent_pool_allowed_workspaces" (
                "pool_id" varchar(32) NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                CONSTRAINT "fk_agent_pool_allowed_workspaces_pool" FOREIGN KEY ("pool_id") REFERENCES "agent_pools" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "fk_agent_pool_allowed_workspaces_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                PRIMARY KEY ("pool_id", "workspace_id")
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_agent_pool_allowed_workspaces"("pool_id", "workspace_id")
            SELECT "pool_id",
                "workspace_id"
            FROM "agent_pool_allowed_workspaces"
        `);
    await queryRunner.query(`
            DROP TABLE "agent_pool_allowed_workspaces"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_agent_pool_allowed_workspaces"
                RENAME TO "agent_pool_allowed_workspaces"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_agent_pool_allowed_workspaces_workspace" ON "agent_pool_allowed_workspaces" ("workspace_id")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_agent_tokens_digest"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_agent_tokens_pool"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_agent_tokens" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "pool_id" varchar(32) NOT NULL,
                "digest" varchar(64) NOT NULL,
                "description" varchar(255) NOT NULL,
                "created_by_id" varchar(32),
                "last_used_at" datetime(3),
                "created_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_agent_tokens_pool" FOREIGN KEY ("pool_id") REFERENCES "agent_pools" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "fk_agent_tokens_created_by" FOREIGN KEY ("created_by_id") REFERENCES "users" ("id") ON DELETE
                SET NULL ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_agent_tokens"(
                    "id",
                    "pool_id",
                    "digest",
                    "description",
                    "created_by_id",
                    "last_used_at",
                    "created_at"
                )
            SELECT "id",
                "pool_id",
                "digest",
                "description",
                "created_by_id",
                "last_used_at",
                "created_at"
            FROM "agent_tokens"
        `);
    await queryRunner.query(`
            DROP TABLE "agent_tokens"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_agent_tokens"
                RENAME TO "agent_tokens"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_agent_tokens_digest" ON "agent_tokens" ("digest")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_agent_tokens_pool" ON "agent_tokens" ("pool_id")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_agents_pool"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_agents" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "pool_id" varchar(32) NOT NULL,
                "token_id" varchar(32),
                "name" varchar(255) NOT NULL,
                "status" varchar(16) NOT NULL,
                "ip_address" varchar(64),
                "last_ping_at" datetime(3) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_agents_pool" FOREIGN KEY ("pool_id") REFERENCES "agent_pools" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "fk_agents_token" FOREIGN KEY ("token_id") REFERENCES "agent_tokens" ("id") ON DELETE
                SET NULL ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_agents"(
                    "id",
                    "pool_id",
                    "token_id",
                    "name",
                    "status",
                    "ip_address",
                    "last_ping_at",
                    "created_at"
                )
            SELECT "id",
                "pool_id",
                "token_id",
                "name",
                "status",
                "ip_address",
                "last_ping_at",
                "created_at"
            FROM "agents"
        `);
    await queryRunner.query(`
            DROP TABLE "agents"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_agents"
                RENAME TO "agents"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_agents_pool" ON "agents" ("pool_id", "last_ping_at")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_agents_pool"
        `);
    await queryRunner.query(`
            ALTER TABLE "agents"
                RENAME TO "temporary_agents"
        `);
    await queryRunner.query(`
            CREATE TABLE "agents" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "pool_id" varchar(32) NOT NULL,
                "token_id" varchar(32),
                "name" varchar(255) NOT NULL,
                "status" varchar(16) NOT NULL,
                "ip_address" varchar(64),
                "last_ping_at" datetime(3) NOT NULL,
                "created_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "agents"(
                    "id",
                    "pool_id",
                    "token_id",
                    "name",
                    "status",
                    "ip_address",
                    "last_ping_at",
                    "created_at"
                )
            SELECT "id",
                "pool_id",
                "token_id",
                "name",
                "status",
                "ip_address",
                "last_ping_at",
                "created_at"
            FROM "temporary_agents"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_agents"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_agents_pool" ON "agents" ("pool_id", "last_ping_at")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_agent_tokens_pool"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_agent_tokens_digest"
        `);
    await queryRunner.query(`
            ALTER TABLE "agent_tokens"
                RENAME TO "temporary_agent_tokens"
        `);
    await queryRunner.query(`
            CREATE TABLE "agent_tokens" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "pool_id" varchar(32) NOT NULL,
                "digest" varchar(64) NOT NULL,
                "description" varchar(255) NOT NULL,
                "created_by_id" varchar(32),
                "last_used_at" datetime(3),
                "created_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "agent_tokens"(
                    "id",
                    "pool_id",
                    "digest",
                    "description",
                    "created_by_id",
                    "last_used_at",
                    "created_at"
                )
            SELECT "id",
                "pool_id",
                "digest",
                "description",
                "created_by_id",
                "last_used_at",
                "created_at"
            FROM "temporary_agent_tokens"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_agent_tokens"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_agent_tokens_pool" ON "agent_tokens" ("pool_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_agent_tokens_digest" ON "agent_tokens" ("digest")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_agent_pool_allowed_workspaces_workspace"
        `);
    await queryRunner.query(`
            ALTER TABLE "agent_pool_allowed_workspaces"
                RENAME TO "temporary_agent_pool_allowed_workspaces"
        `);
    await queryRunner.query(`
            CREATE TABLE "agent_pool_allowed_workspaces" (
                "pool_id" varchar(32) NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                PRIMARY KEY ("pool_id", "workspace_id")
            )
        `);
    await queryRunner.query(`
            INSERT INTO "agent_pool_allowed_workspaces"("pool_id", "workspace_id")
            SELECT "pool_id",
                "workspace_id"
            FROM "temporary_agent_pool_allowed_workspaces"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_agent_pool_allowed_workspaces"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_agent_pool_allowed_workspaces_workspace" ON "agent_pool_allowed_workspaces" ("workspace_id")
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
                CONSTRAINT "fk_workspaces_project" FOREIGN KEY ("project_id") REFERENCES "projects" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION,
                CONSTRAINT "fk_workspaces_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
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
            CREATE INDEX "ix_workspaces_agent_pool" ON "workspaces" ("agent_pool_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_workspaces_project" ON "workspaces" ("project_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_workspaces_org_name" ON "workspaces" ("organization_id", "name")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_agent_pools_org_name"
        `);
    await queryRunner.query(`
            ALTER TABLE "agent_pools"
                RENAME TO "temporary_agent_pools"
        `);
    await queryRunner.query(`
            CREATE TABLE "agent_pools" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "name" varchar(90) NOT NULL,
                "organization_scoped" boolean NOT NULL DEFAULT (1),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "agent_pools"(
                    "id",
                    "organization_id",
                    "name",
                    "organization_scoped",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "organization_id",
                "name",
                "organization_scoped",
                "created_at",
                "updated_at"
            FROM "temporary_agent_pools"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_agent_pools"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_agent_pools_org_name" ON "agent_pools" ("organization_id", "name")
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
                CONSTRAINT "fk_workspaces_project" FOREIGN KEY ("project_id") REFERENCES "projects" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION,
                CONSTRAINT "fk_workspaces_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
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
            CREATE INDEX "ix_workspaces_project" ON "workspaces" ("project_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_workspaces_org_name" ON "workspaces" ("organization_id", "name")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_agents_pool"
        `);
    await queryRunner.query(`
            DROP TABLE "agents"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_agent_tokens_pool"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_agent_tokens_digest"
        `);
    await queryRunner.query(`
            DROP TABLE "agent_tokens"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_agent_pool_allowed_workspaces_workspace"
        `);
    await queryRunner.query(`
            DROP TABLE "agent_pool_allowed_workspaces"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_agent_pools_org_name"
        `);
    await queryRunner.query(`
            DROP TABLE "agent_pools"
        `);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

export class AdministrationAndAudit1795465290003 implements MigrationInterface {
  name = 'AdministrationAndAudit1795465290003';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "audit_events" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "occurred_at" datetime(3) NOT NULL,
                "organization_id" varchar(32),
                "actor_type" varchar(16) NOT NULL,
                "actor_id" varchar(32),
                "actor_name" varchar(64),
                "token_id" varchar(32),
                "client_address" varchar(64),
                "request_id" varchar(64),
                "method" varchar(8) NOT NULL,
                "route" varchar(255) NOT NULL,
                "resource_type" varchar(64) NOT NULL,
                "resource_id" varchar(64),
                "action" varchar(64) NOT NULL,
                "status" integer NOT NULL,
                "outcome" varchar(16) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_audit_events_organization" ON "audit_events" ("organization_id", "occurred_at")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_audit_events_occurred_at" ON "audit_events" ("occurred_at")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_users_email"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_users_username"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_users" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "username" varchar(64) NOT NULL,
                "email" varchar(255) NOT NULL,
                "password_hash" varchar(255) NOT NULL,
                "is_site_admin" boolean NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                "is_suspended" boolean NOT NULL DEFAULT (0),
                "failed_login_count" integer NOT NULL DEFAULT (0),
                "locked_until" datetime(3)
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_users"(
                    "id",
                    "username",
                    "email",
                    "password_hash",
                    "is_site_admin",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "username",
                "email",
                "password_hash",
                "is_site_admin",
                "created_at",
                "updated_at"
            FROM "users"
        `);
    await queryRunner.query(`
            DROP TABLE "users"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_users"
                RENAME TO "users"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_users_email" ON "users" ("email")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_users_username" ON "users" ("username")
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
                "last_used_at" datetime(3),
                CONSTRAINT "fk_tokens_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "fk_tokens_team" FOREIGN KEY ("team_id") REFERENCES "teams" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "fk_tokens_user" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
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
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
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
                "created_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_tokens_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "fk_tokens_team" FOREIGN KEY ("team_id") REFERENCES "teams" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "fk_tokens_user" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
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
            DROP INDEX "uq_users_username"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_users_email"
        `);
    await queryRunner.query(`
            ALTER TABLE "users"
                RENAME TO "temporary_users"
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
            INSERT INTO "users"(
                    "id",
                    "username",
                    "email",
                    "password_hash",
                    "is_site_admin",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "username",
                "email",
                "password_hash",
                "is_site_admin",
                "created_at",
                "updated_at"
            FROM "temporary_users"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_users"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_users_username" ON "users" ("username")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_users_email" ON "users" ("email")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_audit_events_occurred_at"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_audit_events_organization"
        `);
    await queryRunner.query(`
            DROP TABLE "audit_events"
        `);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

export class ReservedTagKeysAndTagBindings1795267293939 implements MigrationInterface {
  name = 'ReservedTagKeysAndTagBindings1795267293939';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "reserved_tag_keys" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "key" varchar(128) NOT NULL,
                "disable_overrides" boolean NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_reserved_tag_keys_org_key" ON "reserved_tag_keys" ("organization_id", "key")
        `);
    await queryRunner.query(`
            CREATE TABLE "tag_bindings" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "project_id" varchar(32),
                "workspace_id" varchar(32),
                "key" varchar(128) NOT NULL,
                "value" varchar(256) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_tag_bindings_workspace_key" ON "tag_bindings" ("workspace_id", "key")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_tag_bindings_project_key" ON "tag_bindings" ("project_id", "key")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_reserved_tag_keys_org_key"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_reserved_tag_keys" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "key" varchar(128) NOT NULL,
                "disable_overrides" boolean NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_reserved_tag_keys_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_reserved_tag_keys"(
                    "id",
                    "organization_id",
                    "key",
                    "disable_overrides",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "organization_id",
                "key",
                "disable_overrides",
                "created_at",
                "updated_at"
            FROM "reserved_tag_keys"
        `);
    await queryRunner.query(`
            DROP TABLE "reserved_tag_keys"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_reserved_tag_keys"
                RENAME TO "reserved_tag_keys"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_reserved_tag_keys_org_key" ON "reserved_tag_keys" ("organization_id", "key")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_tag_bindings_workspace_key"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_tag_bindings_project_key"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_tag_bindings" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "project_id" varchar(32),
                "workspace_id" varchar(32),
                "key" varchar(128) NOT NULL,
                "value" varchar(256) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_tag_bindings_project" FOREIGN KEY ("project_id") REFERENCES "projects" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "fk_tag_bindings_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_tag_bindings"(
                    "id",
                    "project_id",
                    "workspace_id",
                    "key",
                    "value",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "project_id",
                "workspace_id",
                "key",
                "value",
                "created_at",
                "updated_at"
            FROM "tag_bindings"
        `);
    await queryRunner.query(`
            DROP TABLE "tag_bindings"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_tag_bindings"
                RENAME TO "tag_bindings"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_tag_bindings_workspace_key" ON "tag_bindings" ("workspace_id", "key")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_tag_bindings_project_key" ON "tag_bindings" ("project_id", "key")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_tag_bindings_project_key"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_tag_bindings_workspace_key"
        `);
    await queryRunner.query(`
            ALTER TABLE "tag_bindings"
                RENAME TO "temporary_tag_bindings"
        `);
    await queryRunner.query(`
            CREATE TABLE "tag_bindings" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "project_id" varchar(32),
                "workspace_id" varchar(32),
                "key" varchar(128) NOT NULL,
                "value" varchar(256) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "tag_bindings"(
                    "id",
                    "project_id",
                    "workspace_id",
                    "key",
                    "value",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "project_id",
                "workspace_id",
                "key",
                "value",
                "created_at",
                "updated_at"
            FROM "temporary_tag_bindings"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_tag_bindings"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_tag_bindings_project_key" ON "tag_bindings" ("project_id", "key")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_tag_bindings_workspace_key" ON "tag_bindings" ("workspace_id", "key")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_reserved_tag_keys_org_key"
        `);
    await queryRunner.query(`
            ALTER TABLE "reserved_tag_keys"
                RENAME TO "temporary_reserved_tag_keys"
        `);
    await queryRunner.query(`
            CREATE TABLE "reserved_tag_keys" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "key" varchar(128) NOT NULL,
                "disable_overrides" boolean NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "reserved_tag_keys"(
                    "id",
                    "organization_id",
                    "key",
                    "disable_overrides",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "organization_id",
                "key",
                "disable_overrides",
                "created_at",
                "updated_at"
            FROM "temporary_reserved_tag_keys"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_reserved_tag_keys"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_reserved_tag_keys_org_key" ON "reserved_tag_keys" ("organization_id", "key")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_tag_bindings_project_key"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_tag_bindings_workspace_key"
        `);
    await queryRunner.query(`
            DROP TABLE "tag_bindings"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_reserved_tag_keys_org_key"
        `);
    await queryRunner.query(`
            DROP TABLE "reserved_tag_keys"
        `);
  }
}

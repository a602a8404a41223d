import { MigrationInterface, QueryRunner } from 'typeorm';

export class RegistryModules1795465614076 implements MigrationInterface {
  name = 'RegistryModules1795465614076';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "registry_modules" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "registry_name" varchar(16) NOT NULL,
                "namespace" varchar(64) NOT NULL DEFAULT (''),
                "name" varchar(64) NOT NULL,
                "provider" varchar(64) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_registry_modules_identity" ON "registry_modules" (
                "organization_id",
                "registry_name",
                "namespace",
                "name",
                "provider"
            )
        `);
    await queryRunner.query(`
            CREATE TABLE "registry_module_versions" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "module_id" varchar(32) NOT NULL,
                "version" varchar(64) NOT NULL,
                "status" varchar(32) NOT NULL,
                "error" text,
                "archive_blob" varchar(255),
                "archive_size" integer,
                "archive_sha256" varchar(64),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_registry_module_versions_version" ON "registry_module_versions" ("module_id", "version")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_registry_modules_identity"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_registry_modules" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "registry_name" varchar(16) NOT NULL,
                "namespace" varchar(64) NOT NULL DEFAULT (''),
                "name" varchar(64) NOT NULL,
                "provider" varchar(64) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_registry_modules_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_registry_modules"(
                    "id",
                    "organization_id",
                    "registry_name",
                    "namespace",
                    "name",
                    "provider",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "organization_id",
                "registry_name",
                "namespace",
                "name",
                "provider",
                "created_at",
                "updated_at"
            FROM "registry_modules"
        `);
    await queryRunner.query(`
            DROP TABLE "registry_modules"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_registry_modules"
                RENAME TO "registry_modules"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_registry_modules_identity" ON "registry_modules" (
                "organization_id",
                "registry_name",
                "namespace",
                "name",
                "provider"
            )
        `);
    await queryRunner.query(`
            DROP INDEX "uq_registry_module_versions_version"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_registry_module_versions" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "module_id" varchar(32) NOT NULL,
                "version" varchar(64) NOT NULL,
                "status" varchar(32) NOT NULL,
                "error" text,
                "archive_blob" varchar(255),
                "archive_size" integer,
                "archive_sha256" varchar(64),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_registry_module_versions_module" FOREIGN KEY ("module_id") REFERENCES "registry_modules" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_registry_module_versions"(
                    "id",
                    "module_id",
                    "version",
                    "status",
                    "error",
                    "archive_blob",
                    "archive_size",
                    "archive_sha256",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "module_id",
                "version",
                "status",
                "error",
                "archive_blob",
                "archive_size",
                "archive_sha256",
                "created_at",
                "updated_at"
            FROM "registry_module_versions"
        `);
    await queryRunner.query(`
            DROP TABLE "registry_module_versions"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_registry_module_versions"
                RENAME TO "registry_module_versions"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_registry_module_versions_version" ON "registry_module_versions" ("module_id", "version")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_registry_module_versions_version"
        `);
    await queryRunner.query(`
            ALTER TABLE "registry_module_versions"
                RENAME TO "temporary_registry_module_versions"
        `);
    await queryRunner.query(`
            CREATE TABLE "registry_module_versions" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "module_id" varchar(32) NOT NULL,
                "version" varchar(64) NOT NULL,
                "status" varchar(32) NOT NULL,
                "error" text,
                "archive_blob" varchar(255),
                "archive_size" integer,
                "archive_sha256" varchar(64),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "registry_module_versions"(
                    "id",
                    "module_id",
                    "version",
                    "status",
                    "error",
                    "archive_blob",
                    "archive_size",
                    "archive_sha256",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "module_id",
                "version",
                "status",
                "error",
                "archive_blob",
                "archive_size",
                "archive_sha256",
                "created_at",
                "updated_at"
            FROM "temporary_registry_module_versions"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_registry_module_versions"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_registry_module_versions_version" ON "registry_module_versions" ("module_id", "version")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_registry_modules_identity"
        `);
    await queryRunner.query(`
            ALTER TABLE "registry_modules"
                RENAME TO "temporary_registry_modules"
        `);
    await queryRunner.query(`
            CREATE TABLE "registry_modules" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "registry_name" varchar(16) NOT NULL,
                "namespace" varchar(64) NOT NULL DEFAULT (''),
                "name" varchar(64) NOT NULL,
                "provider" varchar(64) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "registry_modules"(
                    "id",
                    "organization_id",
                    "registry_name",
                    "namespace",
                    "name",
                    "provider",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "organization_id",
                "registry_name",
                "namespace",
                "name",
                "provider",
                "created_at",
                "updated_at"
            FROM "temporary_registry_modules"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_registry_modules"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_registry_modules_identity" ON "registry_modules" (
                "organization_id",
                "registry_name",
                "namespace",
                "name",
                "provider"
            )
        `);
    await queryRunner.query(`
            DROP INDEX "uq_registry_module_versions_version"
        `);
    await queryRunner.query(`
            DROP TABLE "registry_module_versions"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_registry_modules_identity"
        `);
    await queryRunner.query(`
            DROP TABLE "registry_modules"
        `);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

export class Registry1795267540965 implements MigrationInterface {
  name = 'Registry1795267540965';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "registry_gpg_keys" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "key_id" varchar(16) NOT NULL,
                "ascii_armor" text NOT NULL,
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_registry_gpg_keys_org_key" ON "registry_gpg_keys" ("organization_id", "key_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "registry_providers" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "registry_name" varchar(16) NOT NULL,
                "namespace" varchar(64) NOT NULL DEFAULT (''),
                "name" varchar(64) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_registry_providers_identity" ON "registry_providers" (
                "organization_id",
                "registry_name",
                "namespace",
                "name"
            )
        `);
    await queryRunner.query(`
            CREATE TABLE "registry_provider_versions" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "provider_id" varchar(32) NOT NULL,
                "version" varchar(64) NOT NULL,
                "key_id" varchar(64) NOT NULL,
                "protocols" varchar(32) NOT NULL,
                "shasums_uploaded" boolean NOT NULL DEFAULT (0),
                "shasums_sig_uploaded" boolean NOT NULL DEFAULT (0),
                "shasums_blob" varchar(255),
                "shasums_sig_blob" varchar(255),
                "signature_state" varchar(16) NOT NULL DEFAULT ('unverified'),
                "usable" boolean NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_registry_provider_versions_version" ON "registry_provider_versions" ("provider_id", "version")
        `);
    await queryRunner.query(`
            CREATE TABLE "registry_provider_checksums" (
                "version_id" varchar(32) NOT NULL,
                "filename" varchar(255) NOT NULL,
                "sha256" varchar(64) NOT NULL,
                PRIMARY KEY ("version_id", "filename")
            )
        `);
    await queryRunner.query(`
            CREATE TABLE "registry_provider_platforms" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "version_id" varchar(32) NOT NULL,
                "os" varchar(16) NOT NULL,
                "arch" varchar(16) NOT NULL,
                "shasum" varchar(128) NOT NULL,
                "filename" varchar(255) NOT NULL,
                "provider_binary_uploaded" boolean NOT NULL DEFAULT (0),
                "binary_blob" varchar(255),
                "ready" boolean NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_registry_provider_platforms_os_arch" ON "registry_provider_platforms" ("version_id", "os", "arch")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_registry_gpg_keys_org_key"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_registry_gpg_keys" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "key_id" varchar(16) NOT NULL,
                "ascii_armor" text NOT NULL,
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_registry_gpg_keys_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_registry_gpg_keys"(
                    "id",
                    "organization_id",
                    "key_id",
                    "ascii_armor",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "organization_id",
                "key_id",
                "ascii_armor",
                "created_at",
                "updated_at"
            FROM "registry_gpg_keys"
        `);
    await queryRunner.query(`
            DROP TABLE "registry_gpg_keys"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_registry_gpg_keys"
                RENAME TO "registry_gpg_keys"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_registry_gpg_keys_org_key" ON "registry_gpg_keys" ("organization_id", "key_id")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_registry_providers_identity"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_registry_providers" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "registry_name" varchar(16) NOT NULL,
                "namespace" varchar(64) NOT NULL DEFAULT (''),
                "name" varchar(64) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_registry_providers_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_registry_providers"(
                    "id",
                    "organization_id",
                    "registry_name",
                    "namespace",
                    "name",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "organization_id",
                "registry_name",
                "namespace",
                "name",
                "created_at",
                "updated_at"
            FROM "registry_providers"
        `);
    await queryRunner.query(`
            DROP TABLE "registry_providers"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_registry_providers"
                RENAME TO "registry_providers"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_registry_providers_identity" ON "registry_providers" (
                "organization_id",
                "registry_name",
                "namespace",
                "name"
            )
        `);
    await queryRunner.query(`
            DROP INDEX "uq_registry_provider_versions_version"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_registry_provider_versions" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "provider_id" varchar(32) NOT NULL,
                "version" varchar(64) NOT NULL,
                "key_id" varchar(64) NOT NULL,
                "protocols" varchar(32) NOT NULL,
                "shasums_uploaded" boolean NOT NULL DEFAULT (0),
                "shasums_sig_uploaded" boolean NOT NULL DEFAULT (0),
                "shasums_blob" varchar(255),
                "shasums_sig_blob" varchar(255),
                "signature_state" varchar(16) NOT NULL DEFAULT ('unverified'),
                "usable" boolean NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_registry_provider_versions_provider" FOREIGN KEY ("provider_id") REFERENCES "registry_providers" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_registry_provider_versions"(
                    "id",
                    "provider_id",
                    "version",
                    "key_id",
                    "protocols",
                    "shasums_uploaded",
                    "shasums_sig_uploaded",
                    "shasums_blob",
                    "shasums_sig_blob",
                    "signature_state",
                    "usable",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "provider_id",
                "version",
                "key_id",
                "protocols",
                "shasums_uploaded",
                "shasums_sig_uploaded",
                "shasums_blob",
                "shasums_sig_blob",
                "signature_state",
                "usable",
                "created_at",
                "updated_at"
            FROM "registry_provider_versions"
        `);
    await queryRunner.query(`
            DROP TABLE "registry_provider_versions"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_registry_provider_versions"
                RENAME TO "registry_provider_versions"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_registry_provider_versions_version" ON "registry_provider_versions" ("provider_id", "version")
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_registry_provider_checksums" (
                "version_id" varchar(32) NOT NULL,
                "filename" varchar(255) NOT NULL,
                "sha256" varchar(64) NOT NULL,
                CONSTRAINT "fk_registry_provider_checksums_version" FOREIGN KEY ("version_id") REFERENCES "registry_provider_versions" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                PRIMARY KEY ("version_id", "filename")
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_registry_provider_checksums"("version_id", "filename", "sha256")
            SELECT "version_id",
                "filename",
                "sha256"
            FROM "registry_provider_checksums"
        `);
    await queryRunner.query(`
            DROP TABLE "registry_provider_checksums"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_registry_provider_checksums"
                RENAME TO "registry_provider_checksums"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_registry_provider_platforms_os_arch"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_registry_provider_platforms" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "version_id" varchar(32) NOT NULL,
                "os" varchar(16) NOT NULL,
                "arch" varchar(16) NOT NULL,
                "shasum" varchar(128) NOT NULL,
                "filename" varchar(255) NOT NULL,
                "provider_binary_uploaded" boolean NOT NULL DEFAULT (0),
                "binary_blob" varchar(255),
                "ready" boolean NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_registry_provider_platforms_version" FOREIGN KEY ("version_id") REFERENCES "registry_provider_versions" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_registry_provider_platforms"(
                    "id",
                    "version_id",
                    "os",
                    "arch",
                    "shasum",
                    "filename",
                    "provider_binary_uploaded",
                    "binary_blob",
                    "ready",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "version_id",
                "os",
                "arch",
                "shasum",
                "filename",
                "provider_binary_uploaded",
                "binary_blob",
                "ready",
                "created_at",
                "updated_at"
            FROM "registry_provider_platforms"
        `);
    await queryRunner.query(`
            DROP TABLE "registry_provider_platforms"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_registry_provider_platforms"
                RENAME TO "registry_provider_platforms"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_registry_provider_platforms_os_arch" ON "registry_provider_platforms" ("version_id", "os", "arch")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_registry_provider_platforms_os_arch"
        `);
    await queryRunner.query(`
            ALTER TABLE "registry_provider_platforms"
                RENAME TO "temporary_registry_provider_platforms"
        `);
    await queryRunner.query(`
            CREATE TABLE "registry_provider_platforms" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "version_id" varchar(32) NOT NULL,
                "os" varchar(16) NOT NULL,
                "arch" varchar(16) NOT NULL,
                "shasum" varchar(128) NOT NULL,
                "filename" varchar(255) NOT NULL,
                "provider_binary_uploaded" boolean NOT NULL DEFAULT (0),
                "binary_blob" varchar(255),
                "ready" boolean NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "registry_provider_platforms"(
                    "id",
                    "version_id",
                    "os",
                    "arch",
                    "shasum",
                    "filename",
                    "provider_binary_uploaded",
                    "binary_blob",
                    "ready",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "version_id",
                "os",
                "arch",
                "shasum",
                "filename",
                "provider_binary_uploaded",
                "binary_blob",
                "ready",
                "created_at",
                "updated_at"
            FROM "temporary_registry_provider_platforms"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_registry_provider_platforms"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_registry_provider_platforms_os_arch" ON "registry_provider_platforms" ("version_id", "os", "arch")
        `);
    await queryRunner.query(`
            ALTER TABLE "registry_provider_checksums"
                RENAME TO "temporary_registry_provider_checksums"
        `);
    await queryRunner.query(`
            CREATE TABLE "registry_provider_checksums" (
                "version_id" varchar(32) NOT NULL,
                "filename" varchar(255) NOT NULL,
                "sha256" varchar(64) NOT NULL,
                PRIMARY KEY ("version_id", "filename")
            )
        `);
    await queryRunner.query(`
            INSERT INTO "registry_provider_checksums"("version_id", "filename", "sha256")
            SELECT "version_id",
                "filename",
                "sha256"
            FROM "temporary_registry_provider_checksums"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_registry_provider_checksums"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_registry_provider_versions_version"
        `);
    await queryRunner.query(`
            ALTER TABLE "registry_provider_versions"
                RENAME TO "temporary_registry_provider_versions"
        `);
    await queryRunner.query(`
            CREATE TABLE "registry_provider_versions" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "provider_id" varchar(32) NOT NULL,
                "version" varchar(64) NOT NULL,
                "key_id" varchar(64) NOT NULL,
                "protocols" varchar(32) NOT NULL,
                "shasums_uploaded" boolean NOT NULL DEFAULT (0),
                "shasums_sig_uploaded" boolean NOT NULL DEFAULT (0),
                "shasums_blob" varchar(255),
                "shasums_sig_blob" varchar(255),
                "signature_state" varchar(16) NOT NULL DEFAULT ('unverified'),
                "usable" boolean NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "registry_provider_versions"(
                    "id",
                    "provider_id",
                    "version",
                    "key_id",
                    "protocols",
                    "shasums_uploaded",
                    "shasums_sig_uploaded",
                    "shasums_blob",
                    "shasums_sig_blob",
                    "signature_state",
                    "usable",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "provider_id",
                "version",
                "key_id",
                "protocols",
                "shasums_uploaded",
                "shasums_sig_uploaded",
                "shasums_blob",
                "shasums_sig_blob",
                "signature_state",
                "usable",
                "created_at",
                "updated_at"
            FROM "temporary_registry_provider_versions"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_registry_provider_versions"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_registry_provider_versions_version" ON "registry_provider_versions" ("provider_id", "version")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_registry_providers_identity"
        `);
    await queryRunner.query(`
            ALTER TABLE "registry_providers"
                RENAME TO "temporary_registry_providers"
        `);
    await queryRunner.query(`
            CREATE TABLE "registry_providers" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "registry_name" varchar(16) NOT NULL,
                "namespace" varchar(64) NOT NULL DEFAULT (''),
                "name" varchar(64) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "registry_providers"(
                    "id",
                    "organization_id",
                    "registry_name",
                    "namespace",
                    "name",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "organization_id",
                "registry_name",
                "namespace",
                "name",
                "created_at",
                "updated_at"
            FROM "temporary_registry_providers"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_registry_providers"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_registry_providers_identity" ON "registry_providers" (
                "organization_id",
                "registry_name",
                "namespace",
                "name"
            )
        `);
    await queryRunner.query(`
            DROP INDEX "uq_registry_gpg_keys_org_key"
        `);
    await queryRunner.query(`
            ALTER TABLE "registry_gpg_keys"
                RENAME TO "temporary_registry_gpg_keys"
        `);
    await queryRunner.query(`
            CREATE TABLE "registry_gpg_keys" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "organization_id" varchar(32) NOT NULL,
                "key_id" varchar(16) NOT NULL,
                "ascii_armor" text NOT NULL,
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "registry_gpg_keys"(
                    "id",
                    "organization_id",
                    "key_id",
                    "ascii_armor",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "organization_id",
                "key_id",
                "ascii_armor",
                "created_at",
                "updated_at"
            FROM "temporary_registry_gpg_keys"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_registry_gpg_keys"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_registry_gpg_keys_org_key" ON "registry_gpg_keys" ("organization_id", "key_id")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_registry_provider_platforms_os_arch"
        `);
    await queryRunner.query(`
            DROP TABLE "registry_provider_platforms"
        `);
    await queryRunner.query(`
            DROP TABLE "registry_provider_checksums"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_registry_provider_versions_version"
        `);
    await queryRunner.query(`
            DROP TABLE "registry_provider_versions"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_registry_providers_identity"
        `);
    await queryRunner.query(`
            DROP TABLE "registry_providers"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_registry_gpg_keys_org_key"
        `);
    await queryRunner.query(`
            DROP TABLE "registry_gpg_keys"
        `);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

export class AdminCatalogs1795267140459 implements MigrationInterface {
  name = 'AdminCatalogs1795267140459';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "tool_versions" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "catalog" varchar(32) NOT NULL,
                "version" varchar(64) NOT NULL,
                "url" varchar(2048) NOT NULL,
                "sha" varchar(64) NOT NULL,
                "deprecated" boolean NOT NULL DEFAULT (0),
                "deprecated_reason" text,
                "official" boolean NOT NULL DEFAULT (0),
                "enabled" boolean NOT NULL DEFAULT (1),
                "beta" boolean NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_tool_versions_catalog_version" ON "tool_versions" ("catalog", "version")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_tool_versions_catalog_version"
        `);
    await queryRunner.query(`
            DROP TABLE "tool_versions"
        `);
  }
}

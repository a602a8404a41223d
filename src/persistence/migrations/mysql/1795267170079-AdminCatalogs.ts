import { MigrationInterface, QueryRunner } from 'typeorm';

export class AdminCatalogs1795267170079 implements MigrationInterface {
  name = 'AdminCatalogs1795267170079';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`tool_versions\` (
                \`id\` varchar(32) NOT NULL,
                \`catalog\` varchar(32) NOT NULL,
                \`version\` varchar(64) NOT NULL,
                \`url\` varchar(2048) NOT NULL,
                \`sha\` varchar(64) NOT NULL,
                \`deprecated\` tinyint NOT NULL DEFAULT 0,
                \`deprecated_reason\` text NULL,
                \`official\` tinyint NOT NULL DEFAULT 0,
                \`enabled\` tinyint NOT NULL DEFAULT 1,
                \`beta\` tinyint NOT NULL DEFAULT 0,
                \`created_at\` datetime(3) NOT NULL,
                UNIQUE INDEX \`uq_tool_versions_catalog_version\` (\`catalog\`, \`version\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`uq_tool_versions_catalog_version\` ON \`tool_versions\`
        `);
    await queryRunner.query(`
            DROP TABLE \`tool_versions\`
        `);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

export class RegistryModules1795465668123 implements MigrationInterface {
  name = 'RegistryModules1795465668123';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`registry_modules\` (
                \`id\` varchar(32) NOT NULL,
                \`organization_id\` varchar(32) NOT NULL,
                \`registry_name\` varchar(16) NOT NULL,
                \`namespace\` varchar(64) NOT NULL DEFAULT '',
                \`name\` varchar(64) NOT NULL,
                \`provider\` varchar(64) NOT NULL,
                \`created_at\` datetime(3) NOT NULL,
                \`updated_at\` datetime(3) NOT NULL,
                UNIQUE INDEX \`uq_registry_modules_identity\` (
                    \`organization_id\`,
                    \`registry_name\`,
                    \`namespace\`,
                    \`name\`,
                    \`provider\`
                ),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`registry_module_versions\` (
                \`id\` varchar(32) NOT NULL,
                \`module_id\` varchar(32) NOT NULL,
                \`version\` varchar(64) NOT NULL,
                \`status\` varchar(32) NOT NULL,
                \`error\` text NULL,
                \`archive_blob\` varchar(255) NULL,
                \`archive_size\` int NULL,
                \`archive_sha256\` varchar(64) NULL,
                \`created_at\` datetime(3) NOT NULL,
                \`updated_at\` datetime(3) NOT NULL,
                UNIQUE INDEX \`uq_registry_module_versions_version\` (\`module_id\`, \`version\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            ALTER TABLE \`registry_modules\`
            ADD CONSTRAINT \`fk_registry_modules_organization\` FOREIGN KEY (\`organization_id\`) REFERENCES \`organizations\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`registry_module_versions\`
            ADD CONSTRAINT \`fk_registry_module_versions_module\` FOREIGN KEY (\`module_id\`) REFERENCES \`registry_modules\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`registry_module_versions\` DROP FOREIGN KEY \`fk_registry_module_versions_module\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`registry_modules\` DROP FOREIGN KEY \`fk_registry_modules_organization\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_registry_module_versions_version\` ON \`registry_module_versions\`
        `);
    await queryRunner.query(`
            DROP TABLE \`registry_module_versions\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_registry_modules_identity\` ON \`registry_modules\`
        `);
    await queryRunner.query(`
            DROP TABLE \`registry_modules\`
        `);
  }
}

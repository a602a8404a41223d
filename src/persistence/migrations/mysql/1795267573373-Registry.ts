import { MigrationInterface, QueryRunner } from 'typeorm';

export class Registry1795267573373 implements MigrationInterface {
  name = 'Registry1795267573373';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`registry_gpg_keys\` (
                \`id\` varchar(32) NOT NULL,
                \`organization_id\` varchar(32) NOT NULL,
                \`key_id\` varchar(16) NOT NULL,
                \`ascii_armor\` text NOT NULL,
                \`created_at\` datetime(3) NOT NULL,
                \`updated_at\` datetime(3) NOT NULL,
                UNIQUE INDEX \`uq_registry_gpg_keys_org_key\` (\`organization_id\`, \`key_id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`registry_providers\` (
                \`id\` varchar(32) NOT NULL,
                \`organization_id\` varchar(32) NOT NULL,
                \`registry_name\` varchar(16) NOT NULL,
                \`namespace\` varchar(64) NOT NULL DEFAULT '',
                \`name\` varchar(64) NOT NULL,
                \`created_at\` datetime(3) NOT NULL,
                \`updated_at\` datetime(3) NOT NULL,
                UNIQUE INDEX \`uq_registry_providers_identity\` (
                    \`organization_id\`,
                    \`registry_name\`,
                    \`namespace\`,
                    \`name\`
                ),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`registry_provider_versions\` (
                \`id\` varchar(32) NOT NULL,
                \`provider_id\` varchar(32) NOT NULL,
                \`version\` varchar(64) NOT NULL,
                \`key_id\` varchar(64) NOT NULL,
                \`protocols\` varchar(32) NOT NULL,
                \`shasums_uploaded\` tinyint NOT NULL DEFAULT 0,
                \`shasums_sig_uploaded\` tinyint NOT NULL DEFAULT 0,
                \`shasums_blob\` varchar(255) NULL,
                \`shasums_sig_blob\` varchar(255) NULL,
                \`signature_state\` varchar(16) NOT NULL DEFAULT 'unverified',
                \`usable\` tinyint NOT NULL DEFAULT 0,
                \`created_at\` datetime(3) NOT NULL,
                \`updated_at\` datetime(3) NOT NULL,
                UNIQUE INDEX \`uq_registry_provider_versions_version\` (\`provider_id\`, \`version\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`registry_provider_checksums\` (
                \`version_id\` varchar(32) NOT NULL,
                \`filename\` varchar(255) NOT NULL,
                \`sha256\` varchar(64) NOT NULL,
                PRIMARY KEY (\`version_id\`, \`filename\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`registry_provider_platforms\` (
                \`id\` varchar(32) NOT NULL,
                \`version_id\` varchar(32) NOT NULL,
                \`os\` varchar(16) NOT NULL,
                \`arch\` varchar(16) NOT NULL,
                \`shasum\` varchar(128) NOT NULL,
                \`filename\` varchar(255) NOT NULL,
                \`provider_binary_uploaded\` tinyint NOT NULL DEFAULT 0,
                \`binary_blob\` varchar(255) NULL,
                \`ready\` tinyint NOT NULL DEFAULT 0,
                \`created_at\` datetime(3) NOT NULL,
                \`updated_at\` datetime(3) NOT NULL,
                UNIQUE INDEX \`uq_registry_provider_platforms_os_arch\` (\`version_id\`, \`os\`, \`arch\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            ALTER TABLE \`registry_gpg_keys\`
            ADD CONSTRAINT \`fk_registry_gpg_keys_organization\` FOREIGN KEY (\`organization_id\`) REFERENCES \`organizations\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`registry_providers\`
            ADD CONSTRAINT \`fk_registry_providers_organization\` FOREIGN KEY (\`organization_id\`) REFERENCES \`organizations\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`registry_provider_versions\`
            ADD CONSTRAINT \`fk_registry_provider_versions_provider\` FOREIGN KEY (\`provider_id\`) REFERENCES \`registry_providers\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`registry_provider_checksums\`
            ADD CONSTRAINT \`fk_registry_provider_checksums_version\` FOREIGN KEY (\`version_id\`) REFERENCES \`registry_provider_versions\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`registry_provider_platforms\`
            ADD CONSTRAINT \`fk_registry_provider_platforms_version\` FOREIGN KEY (\`version_id\`) REFERENCES \`registry_provider_versions\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`registry_provider_platforms\` DROP FOREIGN KEY \`fk_registry_provider_platforms_version\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`registry_provider_checksums\` DROP FOREIGN KEY \`fk_registry_provider_checksums_version\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`registry_provider_versions\` DROP FOREIGN KEY \`fk_registry_provider_versions_provider\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`registry_providers\` DROP FOREIGN KEY \`fk_registry_providers_organization\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`registry_gpg_keys\` DROP FOREIGN KEY \`fk_registry_gpg_keys_organization\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_registry_provider_platforms_os_arch\` ON \`registry_provider_platforms\`
        `);
    await queryRunner.query(`
            DROP TABLE \`registry_provider_platforms\`
        `);
    await queryRunner.query(`
            DROP TABLE \`registry_provider_checksums\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_registry_provider_versions_version\` ON \`registry_provider_versions\`
        `);
    await queryRunner.query(`
            DROP TABLE \`registry_provider_versions\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_registry_providers_identity\` ON \`registry_providers\`
        `);
    await queryRunner.query(`
            DROP TABLE \`registry_providers\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_registry_gpg_keys_org_key\` ON \`registry_gpg_keys\`
        `);
    await queryRunner.query(`
            DROP TABLE \`registry_gpg_keys\`
        `);
  }
}

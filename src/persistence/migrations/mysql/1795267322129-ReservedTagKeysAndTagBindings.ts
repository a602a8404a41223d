import { MigrationInterface, QueryRunner } from 'typeorm';

export class ReservedTagKeysAndTagBindings1795267322129 implements MigrationInterface {
  name = 'ReservedTagKeysAndTagBindings1795267322129';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`reserved_tag_keys\` (
                \`id\` varchar(32) NOT NULL,
                \`organization_id\` varchar(32) NOT NULL,
                \`key\` varchar(128) NOT NULL,
                \`disable_overrides\` tinyint NOT NULL DEFAULT 0,
                \`created_at\` datetime(3) NOT NULL,
                \`updated_at\` datetime(3) NOT NULL,
                UNIQUE INDEX \`uq_reserved_tag_keys_org_key\` (\`organization_id\`, \`key\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`tag_bindings\` (
                \`id\` varchar(32) NOT NULL,
                \`project_id\` varchar(32) NULL,
                \`workspace_id\` varchar(32) NULL,
                \`key\` varchar(128) NOT NULL,
                \`value\` varchar(256) NOT NULL,
                \`created_at\` datetime(3) NOT NULL,
                \`updated_at\` datetime(3) NOT NULL,
                UNIQUE INDEX \`uq_tag_bindings_workspace_key\` (\`workspace_id\`, \`key\`),
                UNIQUE INDEX \`uq_tag_bindings_project_key\` (\`project_id\`, \`key\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            ALTER TABLE \`reserved_tag_keys\`
            ADD CONSTRAINT \`fk_reserved_tag_keys_organization\` FOREIGN KEY (\`organization_id\`) REFERENCES \`organizations\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`tag_bindings\`
            ADD CONSTRAINT \`fk_tag_bindings_project\` FOREIGN KEY (\`project_id\`) REFERENCES \`projects\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`tag_bindings\`
            ADD CONSTRAINT \`fk_tag_bindings_workspace\` FOREIGN KEY (\`workspace_id\`) REFERENCES \`workspaces\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`tag_bindings\` DROP FOREIGN KEY \`fk_tag_bindings_workspace\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`tag_bindings\` DROP FOREIGN KEY \`fk_tag_bindings_project\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`reserved_tag_keys\` DROP FOREIGN KEY \`fk_reserved_tag_keys_organization\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_tag_bindings_project_key\` ON \`tag_bindings\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_tag_bindings_workspace_key\` ON \`tag_bindings\`
        `);
    await queryRunner.query(`
            DROP TABLE \`tag_bindings\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_reserved_tag_keys_org_key\` ON \`reserved_tag_keys\`
        `);
    await queryRunner.query(`
            DROP TABLE \`reserved_tag_keys\`
        `);
  }
}

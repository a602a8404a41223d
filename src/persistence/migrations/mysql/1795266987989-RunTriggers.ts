import { MigrationInterface, QueryRunner } from 'typeorm';

export class RunTriggers1795266987989 implements MigrationInterface {
  name = 'RunTriggers1795266987989';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`run_triggers\` (
                \`id\` varchar(32) NOT NULL,
                \`workspace_id\` varchar(32) NOT NULL,
                \`sourceable_id\` varchar(32) NOT NULL,
                \`created_at\` datetime(3) NOT NULL,
                INDEX \`ix_run_triggers_sourceable\` (\`sourceable_id\`),
                UNIQUE INDEX \`uq_run_triggers_workspace_sourceable\` (\`workspace_id\`, \`sourceable_id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            ALTER TABLE \`run_triggers\`
            ADD CONSTRAINT \`fk_run_triggers_workspace\` FOREIGN KEY (\`workspace_id\`) REFERENCES \`workspaces\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`run_triggers\`
            ADD CONSTRAINT \`fk_run_triggers_sourceable\` FOREIGN KEY (\`sourceable_id\`) REFERENCES \`workspaces\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`run_triggers\` DROP FOREIGN KEY \`fk_run_triggers_sourceable\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`run_triggers\` DROP FOREIGN KEY \`fk_run_triggers_workspace\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_run_triggers_workspace_sourceable\` ON \`run_triggers\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_run_triggers_sourceable\` ON \`run_triggers\`
        `);
    await queryRunner.query(`
            DROP TABLE \`run_triggers\`
        `);
  }
}

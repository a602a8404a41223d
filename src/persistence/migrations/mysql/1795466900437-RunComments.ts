import { MigrationInterface, QueryRunner } from 'typeorm';

export class RunComments1795466900437 implements MigrationInterface {
  name = 'RunComments1795466900437';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`run_comments\` (
                \`id\` varchar(32) NOT NULL,
                \`run_id\` varchar(32) NOT NULL,
                \`body\` text NOT NULL,
                \`action\` varchar(16) NULL,
                \`created_by_id\` varchar(32) NULL,
                \`created_at\` datetime(3) NOT NULL,
                INDEX \`ix_run_comments_run_created\` (\`run_id\`, \`created_at\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            ALTER TABLE \`run_comments\`
            ADD CONSTRAINT \`fk_run_comments_run\` FOREIGN KEY (\`run_id\`) REFERENCES \`runs\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`run_comments\` DROP FOREIGN KEY \`fk_run_comments_run\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_run_comments_run_created\` ON \`run_comments\`
        `);
    await queryRunner.query(`
            DROP TABLE \`run_comments\`
        `);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

export class RunVariables1795775957324 implements MigrationInterface {
  name = 'RunVariables1795775957324';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`run_variables\` (
                \`id\` varchar(32) NOT NULL,
                \`run_id\` varchar(32) NOT NULL,
                \`position\` int NOT NULL,
                \`key\` varchar(128) NOT NULL,
                \`sealed_value\` json NOT NULL,
                INDEX \`ix_run_variables_run\` (\`run_id\`, \`position\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            ALTER TABLE \`run_variables\`
            ADD CONSTRAINT \`fk_run_variables_run\` FOREIGN KEY (\`run_id\`) REFERENCES \`runs\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`run_variables\` DROP FOREIGN KEY \`fk_run_variables_run\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_run_variables_run\` ON \`run_variables\`
        `);
    await queryRunner.query(`
            DROP TABLE \`run_variables\`
        `);
  }
}

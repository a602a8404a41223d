import { MigrationInterface, QueryRunner } from 'typeorm';

export class PolicySetParameters1795784705454 implements MigrationInterface {
  name = 'PolicySetParameters1795784705454';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`policy_set_parameters\` (
                \`id\` varchar(32) NOT NULL,
                \`policy_set_id\` varchar(32) NOT NULL,
                \`key\` varchar(128) NOT NULL,
                \`key_digest\` varchar(64) NOT NULL,
                \`value\` json NULL,
                \`sealed_value\` json NULL,
                \`sensitive\` tinyint NOT NULL DEFAULT 0,
                \`created_at\` datetime(3) NOT NULL,
                \`updated_at\` datetime(3) NOT NULL,
                UNIQUE INDEX \`uq_policy_set_parameters_key\` (\`policy_set_id\`, \`key_digest\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            ALTER TABLE \`policy_set_parameters\`
            ADD CONSTRAINT \`fk_policy_set_parameters_set\` FOREIGN KEY (\`policy_set_id\`) REFERENCES \`policy_sets\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`policy_set_parameters\` DROP FOREIGN KEY \`fk_policy_set_parameters_set\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_policy_set_parameters_key\` ON \`policy_set_parameters\`
        `);
    await queryRunner.query(`
            DROP TABLE \`policy_set_parameters\`
        `);
  }
}

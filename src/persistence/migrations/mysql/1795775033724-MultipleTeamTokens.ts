import { MigrationInterface, QueryRunner } from 'typeorm';

export class MultipleTeamTokens1795775033724 implements MigrationInterface {
  name = 'MultipleTeamTokens1795775033724';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`tokens\`
            ADD \`legacy\` tinyint NOT NULL DEFAULT 0
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX \`uq_tokens_team_description\` ON \`tokens\` (\`team_id\`, \`description\`)
        `);
    // Every team token issued so far came from the one-token-per-team route.
    await queryRunner.query(`
            UPDATE \`tokens\` SET \`legacy\` = 1 WHERE \`kind\` = 'team'
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`uq_tokens_team_description\` ON \`tokens\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`tokens\` DROP COLUMN \`legacy\`
        `);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

export class RunPhasesByKindUpdated1795789332083 implements MigrationInterface {
  name = 'RunPhasesByKindUpdated1795789332083';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE INDEX \`ix_run_phases_kind_updated\` ON \`run_phases\` (\`kind\`, \`updated_at\`)
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`ix_run_phases_kind_updated\` ON \`run_phases\`
        `);
  }
}

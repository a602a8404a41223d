import { MigrationInterface, QueryRunner } from 'typeorm';

export class AuditEventCounts1795784330094 implements MigrationInterface {
  name = 'AuditEventCounts1795784330094';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`audit_event_counts\` (
                \`organization_id\` varchar(32) NOT NULL,
                \`hour_start\` datetime(3) NOT NULL,
                \`events\` int NOT NULL,
                INDEX \`ix_audit_event_counts_hour\` (\`hour_start\`),
                PRIMARY KEY (\`organization_id\`, \`hour_start\`)
            ) ENGINE = InnoDB
        `);
    // The hours of the events already recorded.
    await queryRunner.query(`
            INSERT INTO \`audit_event_counts\` (\`organization_id\`, \`hour_start\`, \`events\`)
            SELECT COALESCE(\`organization_id\`, ''), DATE_FORMAT(\`occurred_at\`, '%Y-%m-%d %H:00:00'), COUNT(*)
            FROM \`audit_events\`
            GROUP BY COALESCE(\`organization_id\`, ''), DATE_FORMAT(\`occurred_at\`, '%Y-%m-%d %H:00:00')
        `);
    // The new index before the old one goes: the runs are never without one.
    await queryRunner.query(`
            CREATE INDEX \`ix_runs_workspace_status_created\` ON \`runs\` (\`workspace_id\`, \`status\`, \`created_at\`)
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_runs_workspace_status\` ON \`runs\`
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`ix_runs_workspace_status_created\` ON \`runs\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_audit_event_counts_hour\` ON \`audit_event_counts\`
        `);
    await queryRunner.query(`
            DROP TABLE \`audit_event_counts\`
        `);
    await queryRunner.query(`
            CREATE INDEX \`ix_runs_workspace_status\` ON \`runs\` (\`workspace_id\`, \`status\`)
        `);
  }
}

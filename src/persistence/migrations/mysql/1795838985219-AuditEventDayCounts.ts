import { MigrationInterface, QueryRunner } from 'typeorm';

export class AuditEventDayCounts1795838985219 implements MigrationInterface {
  name = 'AuditEventDayCounts1795838985219';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`audit_event_day_counts\` (
                \`organization_id\` varchar(32) NOT NULL,
                \`day_start\` datetime(3) NOT NULL,
                \`events\` int NOT NULL,
                INDEX \`ix_audit_event_day_counts_day\` (\`day_start\`),
                PRIMARY KEY (\`organization_id\`, \`day_start\`)
            ) ENGINE = InnoDB
        `);
    // The days of the events already counted, from their hours.
    await queryRunner.query(`
            INSERT INTO \`audit_event_day_counts\` (\`organization_id\`, \`day_start\`, \`events\`)
            SELECT \`organization_id\`, CAST(DATE(\`hour_start\`) AS DATETIME(3)), SUM(\`events\`)
            FROM \`audit_event_counts\`
            GROUP BY \`organization_id\`, DATE(\`hour_start\`)
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`ix_audit_event_day_counts_day\` ON \`audit_event_day_counts\`
        `);
    await queryRunner.query(`
            DROP TABLE \`audit_event_day_counts\`
        `);
  }
}

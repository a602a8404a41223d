import { MigrationInterface, QueryRunner } from 'typeorm';

export class AuditEventDayCounts1795838928156 implements MigrationInterface {
  name = 'AuditEventDayCounts1795838928156';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "audit_event_day_counts" (
                "organization_id" varchar(32) NOT NULL,
                "day_start" datetime(3) NOT NULL,
                "events" integer NOT NULL,
                PRIMARY KEY ("organization_id", "day_start")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_audit_event_day_counts_day" ON "audit_event_day_counts" ("day_start")
        `);
    // The days of the events already counted, from their hours ('YYYY-MM-DD HH:MM:SS.SSS').
    await queryRunner.query(`
            INSERT INTO "audit_event_day_counts" ("organization_id", "day_start", "events")
            SELECT "organization_id", substr("hour_start", 1, 10) || ' 00:00:00.000', SUM("events")
            FROM "audit_event_counts"
            GROUP BY 1, 2
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_audit_event_day_counts_day"
        `);
    await queryRunner.query(`
            DROP TABLE "audit_event_day_counts"
        `);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

export class AuditEventCounts1795784228424 implements MigrationInterface {
  name = 'AuditEventCounts1795784228424';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_runs_workspace_status"
        `);
    await queryRunner.query(`
            CREATE TABLE "audit_event_counts" (
                "organization_id" varchar(32) NOT NULL,
                "hour_start" datetime(3) NOT NULL,
                "events" integer NOT NULL,
                PRIMARY KEY ("organization_id", "hour_start")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_audit_event_counts_hour" ON "audit_event_counts" ("hour_start")
        `);
    // The hours of the events already recorded (timestamps are stored as 'YYYY-MM-DD HH:MM:SS.SSS').
    await queryRunner.query(`
            INSERT INTO "audit_event_counts" ("organization_id", "hour_start", "events")
            SELECT COALESCE("organization_id", ''), substr("occurred_at", 1, 13) || ':00:00.000', COUNT(*)
            FROM "audit_events"
            GROUP BY 1, 2
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_runs_workspace_status_created" ON "runs" ("workspace_id", "status", "created_at")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_runs_workspace_status_created"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_audit_event_counts_hour"
        `);
    await queryRunner.query(`
            DROP TABLE "audit_event_counts"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_runs_workspace_status" ON "runs" ("workspace_id", "status")
        `);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Keeps the audit events in the order the trail reads them: the primary key becomes
 * (organization_id, occurred_at, id), the id stays unique, and events of no organization store ''
 * (a primary key column is never NULL). One copy of the table, not the two the generator writes.
 */
export class AuditEventsByOrganizationAndTime1795839942888 implements MigrationInterface {
  name = 'AuditEventsByOrganizationAndTime1795839942888';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_audit_events_occurred_at"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_audit_events_organization"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_audit_events" (
                "id" varchar(36) NOT NULL,
                "occurred_at" datetime(3) NOT NULL,
                "organization_id" varchar(32) NOT NULL DEFAULT (''),
                "actor_type" varchar(16) NOT NULL,
                "actor_id" varchar(32),
                "actor_name" varchar(64),
                "token_id" varchar(32),
                "client_address" varchar(64),
                "request_id" varchar(64),
                "method" varchar(8) NOT NULL,
                "route" varchar(255) NOT NULL,
                "resource_type" varchar(64) NOT NULL,
                "resource_id" varchar(64),
                "action" varchar(64) NOT NULL,
                "status" integer NOT NULL,
                "outcome" varchar(16) NOT NULL,
                "error_code" varchar(64),
                PRIMARY KEY ("organization_id", "occurred_at", "id")
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_audit_events" ("id", "occurred_at", "organization_id", "actor_type", "actor_id", "actor_name", "token_id", "client_address", "request_id", "method", "route", "resource_type", "resource_id", "action", "status", "outcome", "error_code")
            SELECT "id", "occurred_at", COALESCE("organization_id", ''), "actor_type", "actor_id", "actor_name", "token_id", "client_address", "request_id", "method", "route", "resource_type", "resource_id", "action", "status", "outcome", "error_code"
            FROM "audit_events"
        `);
    await queryRunner.query(`
            DROP TABLE "audit_events"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_audit_events" RENAME TO "audit_events"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "ux_audit_events_id" ON "audit_events" ("id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_audit_events_occurred_at" ON "audit_events" ("occurred_at", "id")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_audit_events_occurred_at"
        `);
    await queryRunner.query(`
            DROP INDEX "ux_audit_events_id"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_audit_events" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "occurred_at" datetime(3) NOT NULL,
                "organization_id" varchar(32),
                "actor_type" varchar(16) NOT NULL,
                "actor_id" varchar(32),
                "actor_name" varchar(64),
                "token_id" varchar(32),
                "client_address" varchar(64),
                "request_id" varchar(64),
                "method" varchar(8) NOT NULL,
                "route" varchar(255) NOT NULL,
                "resource_type" varchar(64) NOT NULL,
                "resource_id" varchar(64),
                "action" varchar(64) NOT NULL,
                "status" integer NOT NULL,
                "outcome" varchar(16) NOT NULL,
                "error_code" varchar(64)
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_audit_events" ("id", "occurred_at", "organization_id", "actor_type", "actor_id", "actor_name", "token_id", "client_address", "request_id", "method", "route", "resource_type", "resource_id", "action", "status", "outcome", "error_code")
            SELECT "id", "occurred_at", NULLIF("organization_id", ''), "actor_type", "actor_id", "actor_name", "token_id", "client_address", "request_id", "method", "route", "resource_type", "resource_id", "action", "status", "outcome", "error_code"
            FROM "audit_events"
        `);
    await queryRunner.query(`
            DROP TABLE "audit_events"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_audit_events" RENAME TO "audit_events"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_audit_events_organization" ON "audit_events" ("organization_id", "occurred_at")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_audit_events_occurred_at" ON "audit_events" ("occurred_at")
        `);
  }
}

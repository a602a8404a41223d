import { MigrationInterface, QueryRunner } from 'typeorm';

export class Notifications1795773506790 implements MigrationInterface {
  name = 'Notifications1795773506790';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "notification_configurations" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                "name" varchar(255) NOT NULL,
                "destination_type" varchar(32) NOT NULL,
                "enabled" boolean NOT NULL DEFAULT (0),
                "url" varchar(2048),
                "sealed_token" text,
                "triggers" text NOT NULL,
                "email_addresses" text NOT NULL,
                "email_user_ids" text NOT NULL,
                "delivery_responses" text NOT NULL,
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_notification_configurations_workspace" ON "notification_configurations" ("workspace_id", "created_at")
        `);
    await queryRunner.query(`
            CREATE TABLE "notification_deliveries" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "configuration_id" varchar(32) NOT NULL,
                "trigger" varchar(64) NOT NULL,
                "event" text NOT NULL,
                "status" varchar(16) NOT NULL,
                "attempts" integer NOT NULL,
                "due_at" datetime(3) NOT NULL,
                "last_error" text,
                "created_at" datetime(3) NOT NULL,
                "finished_at" datetime(3)
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_notification_deliveries_configuration" ON "notification_deliveries" ("configuration_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_notification_deliveries_due" ON "notification_deliveries" ("status", "due_at")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_notification_configurations_workspace"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_notification_configurations" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                "name" varchar(255) NOT NULL,
                "destination_type" varchar(32) NOT NULL,
                "enabled" boolean NOT NULL DEFAULT (0),
                "url" varchar(2048),
                "sealed_token" text,
                "triggers" text NOT NULL,
                "email_addresses" text NOT NULL,
                "email_user_ids" text NOT NULL,
                "delivery_responses" text NOT NULL,
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_notification_configurations_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_notification_configurations"(
                    "id",
                    "workspace_id",
                    "name",
                    "destination_type",
                    "enabled",
                    "url",
                    "sealed_token",
                    "triggers",
                    "email_addresses",
                    "email_user_ids",
                    "delivery_responses",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "workspace_id",
                "name",
                "destination_type",
                "enabled",
                "url",
                "sealed_token",
                "triggers",
                "email_addresses",
                "email_user_ids",
                "delivery_responses",
                "created_at",
                "updated_at"
            FROM "notification_configurations"
        `);
    await queryRunner.query(`
            DROP TABLE "notification_configurations"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_notification_configurations"
                RENAME TO "notification_configurations"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_notification_configurations_workspace" ON "notification_configurations" ("workspace_id", "created_at")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_notification_deliveries_configuration"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_notification_deliveries_due"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_notification_deliveries" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "configuration_id" varchar(32) NOT NULL,
                "trigger" varchar(64) NOT NULL,
                "event" text NOT NULL,
                "status" varchar(16) NOT NULL,
                "attempts" integer NOT NULL,
                "due_at" datetime(3) NOT NULL,
                "last_error" text,
                "created_at" datetime(3) NOT NULL,
                "finished_at" datetime(3),
                CONSTRAINT "fk_notification_deliveries_configuration" FOREIGN KEY ("configuration_id") REFERENCES "notification_configurations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_notification_deliveries"(
                    "id",
                    "configuration_id",
                    "trigger",
                    "event",
                    "status",
                    "attempts",
                    "due_at",
                    "last_error",
                    "created_at",
                    "finished_at"
                )
            SELECT "id",
                "configuration_id",
                "trigger",
                "event",
                "status",
                "attempts",
                "due_at",
                "last_error",
                "created_at",
                "finished_at"
            FROM "notification_deliveries"
        `);
    await queryRunner.query(`
            DROP TABLE "notification_deliveries"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_notification_deliveries"
                RENAME TO "notification_deliveries"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_notification_deliveries_configuration" ON "notification_deliveries" ("configuration_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_notification_deliveries_due" ON "notification_deliveries" ("status", "due_at")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_notification_deliveries_due"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_notification_deliveries_configuration"
        `);
    await queryRunner.query(`
            ALTER TABLE "notification_deliveries"
                RENAME TO "temporary_notification_deliveries"
        `);
    await queryRunner.query(`
            CREATE TABLE "notification_deliveries" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "configuration_id" varchar(32) NOT NULL,
                "trigger" varchar(64) NOT NULL,
                "event" text NOT NULL,
                "status" varchar(16) NOT NULL,
                "attempts" integer NOT NULL,
                "due_at" datetime(3) NOT NULL,
                "last_error" text,
                "created_at" datetime(3) NOT NULL,
                "finished_at" datetime(3)
            )
        `);
    await queryRunner.query(`
            INSERT INTO "notification_deliveries"(
                    "id",
                    "configuration_id",
                    "trigger",
                    "event",
                    "status",
                    "attempts",
                    "due_at",
                    "last_error",
                    "created_at",
                    "finished_at"
                )
            SELECT "id",
                "configuration_id",
                "trigger",
                "event",
                "status",
                "attempts",
                "due_at",
                "last_error",
                "created_at",
                "finished_at"
            FROM "temporary_notification_deliveries"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_notification_deliveries"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_notification_deliveries_due" ON "notification_deliveries" ("status", "due_at")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_notification_deliveries_configuration" ON "notification_deliveries" ("configuration_id")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_notification_configurations_workspace"
        `);
    await queryRunner.query(`
            ALTER TABLE "notification_configurations"
                RENAME TO "temporary_notification_configurations"
        `);
    await queryRunner.query(`
            CREATE TABLE "notification_configurations" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "workspace_id" varchar(32) NOT NULL,
                "name" varchar(255) NOT NULL,
                "destination_type" varchar(32) NOT NULL,
                "enabled" boolean NOT NULL DEFAULT (0),
                "url" varchar(2048),
                "sealed_token" text,
                "triggers" text NOT NULL,
                "email_addresses" text NOT NULL,
                "email_user_ids" text NOT NULL,
                "delivery_responses" text NOT NULL,
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "notification_configurations"(
                    "id",
                    "workspace_id",
                    "name",
                    "destination_type",
                    "enabled",
                    "url",
                    "sealed_token",
                    "triggers",
                    "email_addresses",
                    "email_user_ids",
                    "delivery_responses",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "workspace_id",
                "name",
                "destination_type",
                "enabled",
                "url",
                "sealed_token",
                "triggers",
                "email_addresses",
                "email_user_ids",
                "delivery_responses",
                "created_at",
                "updated_at"
            FROM "temporary_notification_configurations"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_notification_configurations"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_notification_configurations_workspace" ON "notification_configurations" ("workspace_id", "created_at")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_notification_deliveries_due"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_notification_deliveries_configuration"
        `);
    await queryRunner.query(`
            DROP TABLE "notification_deliveries"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_notification_configurations_workspace"
        `);
    await queryRunner.query(`
            DROP TABLE "notification_configurations"
        `);
  }
}

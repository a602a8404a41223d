import { MigrationInterface, QueryRunner } from 'typeorm';

export class DropLoginLockout1795762198093 implements MigrationInterface {
  name = 'DropLoginLockout1795762198093';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_users_username"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_users_email"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_users" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "username" varchar(64) NOT NULL,
                "email" varchar(255) NOT NULL,
                "password_hash" varchar(255) NOT NULL,
                "is_site_admin" boolean NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                "is_suspended" boolean NOT NULL DEFAULT (0)
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_users"(
                    "id",
                    "username",
                    "email",
                    "password_hash",
                    "is_site_admin",
                    "created_at",
                    "updated_at",
                    "is_suspended"
                )
            SELECT "id",
                "username",
                "email",
                "password_hash",
                "is_site_admin",
                "created_at",
                "updated_at",
                "is_suspended"
            FROM "users"
        `);
    await queryRunner.query(`
            DROP TABLE "users"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_users"
                RENAME TO "users"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_users_username" ON "users" ("username")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_users_email" ON "users" ("email")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_users_email"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_users_username"
        `);
    await queryRunner.query(`
            ALTER TABLE "users"
                RENAME TO "temporary_users"
        `);
    await queryRunner.query(`
            CREATE TABLE "users" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "username" varchar(64) NOT NULL,
                "email" varchar(255) NOT NULL,
                "password_hash" varchar(255) NOT NULL,
                "is_site_admin" boolean NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                "is_suspended" boolean NOT NULL DEFAULT (0),
                "failed_login_count" integer NOT NULL DEFAULT (0),
                "locked_until" datetime(3)
            )
        `);
    await queryRunner.query(`
            INSERT INTO "users"(
                    "id",
                    "username",
                    "email",
                    "password_hash",
                    "is_site_admin",
                    "created_at",
                    "updated_at",
                    "is_suspended"
                )
            SELECT "id",
                "username",
                "email",
                "password_hash",
                "is_site_admin",
                "created_at",
                "updated_at",
                "is_suspended"
            FROM "temporary_users"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_users"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_users_email" ON "users" ("email")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_users_username" ON "users" ("username")
        `);
  }
}

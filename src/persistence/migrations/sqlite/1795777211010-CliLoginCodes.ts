import { MigrationInterface, QueryRunner } from 'typeorm';

export class CliLoginCodes1795777211010 implements MigrationInterface {
  name = 'CliLoginCodes1795777211010';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "cli_login_codes" (
                "digest" varchar(64) PRIMARY KEY NOT NULL,
                "user_id" varchar(32) NOT NULL,
                "client_id" varchar(64) NOT NULL,
                "redirect_uri" varchar(64) NOT NULL,
                "code_challenge" varchar(43) NOT NULL,
                "expires_at" datetime(3) NOT NULL,
                "created_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_cli_login_codes_user" ON "cli_login_codes" ("user_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_cli_login_codes_expires" ON "cli_login_codes" ("expires_at")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_cli_login_codes_user"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_cli_login_codes_expires"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_cli_login_codes" (
                "digest" varchar(64) PRIMARY KEY NOT NULL,
                "user_id" varchar(32) NOT NULL,
                "client_id" varchar(64) NOT NULL,
                "redirect_uri" varchar(64) NOT NULL,
                "code_challenge" varchar(43) NOT NULL,
                "expires_at" datetime(3) NOT NULL,
                "created_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_cli_login_codes_user" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_cli_login_codes"(
                    "digest",
                    "user_id",
                    "client_id",
                    "redirect_uri",
                    "code_challenge",
                    "expires_at",
                    "created_at"
                )
            SELECT "digest",
                "user_id",
                "client_id",
                "redirect_uri",
                "code_challenge",
                "expires_at",
                "created_at"
            FROM "cli_login_codes"
        `);
    await queryRunner.query(`
            DROP TABLE "cli_login_codes"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_cli_login_codes"
                RENAME TO "cli_login_codes"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_cli_login_codes_user" ON "cli_login_codes" ("user_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_cli_login_codes_expires" ON "cli_login_codes" ("expires_at")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_cli_login_codes_expires"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_cli_login_codes_user"
        `);
    await queryRunner.query(`
            ALTER TABLE "cli_login_codes"
                RENAME TO "temporary_cli_login_codes"
        `);
    await queryRunner.query(`
            CREATE TABLE "cli_login_codes" (
                "digest" varchar(64) PRIMARY KEY NOT NULL,
                "user_id" varchar(32) NOT NULL,
                "client_id" varchar(64) NOT NULL,
                "redirect_uri" varchar(64) NOT NULL,
                "code_challenge" varchar(43) NOT NULL,
                "expires_at" datetime(3) NOT NULL,
                "created_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "cli_login_codes"(
                    "digest",
                    "user_id",
                    "client_id",
                    "redirect_uri",
                    "code_challenge",
                    "expires_at",
                    "created_at"
                )
            SELECT "digest",
                "user_id",
                "client_id",
                "redirect_uri",
                "code_challenge",
                "expires_at",
                "created_at"
            FROM "temporary_cli_login_codes"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_cli_login_codes"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_cli_login_codes_expires" ON "cli_login_codes" ("expires_at")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_cli_login_codes_user" ON "cli_login_codes" ("user_id")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_cli_login_codes_expires"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_cli_login_codes_user"
        `);
    await queryRunner.query(`
            DROP TABLE "cli_login_codes"
        `);
  }
}

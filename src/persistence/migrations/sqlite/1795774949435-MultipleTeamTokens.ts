import { MigrationInterface, QueryRunner } from 'typeorm';

export class MultipleTeamTokens1795774949435 implements MigrationInterface {
  name = 'MultipleTeamTokens1795774949435';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_tokens_digest"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_tokens_organization"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_tokens_team"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_tokens_user"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_tokens" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "kind" varchar(16) NOT NULL,
                "digest" varchar(64) NOT NULL,
                "user_id" varchar(32),
                "team_id" varchar(32),
                "organization_id" varchar(32),
                "description" varchar(255),
                "expires_at" datetime(3),
                "created_at" datetime(3) NOT NULL,
                "last_used_at" datetime(3),
                "legacy" boolean NOT NULL DEFAULT (0),
                CONSTRAINT "fk_tokens_user" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "fk_tokens_team" FOREIGN KEY ("team_id") REFERENCES "teams" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "fk_tokens_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_tokens"(
                    "id",
                    "kind",
                    "digest",
                    "user_id",
                    "team_id",
                    "organization_id",
                    "description",
                    "expires_at",
                    "created_at",
                    "last_used_at"
                )
            SELECT "id",
                "kind",
                "digest",
                "user_id",
                "team_id",
                "organization_id",
                "description",
                "expires_at",
                "created_at",
                "last_used_at"
            FROM "tokens"
        `);
    await queryRunner.query(`
            DROP TABLE "tokens"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_tokens"
                RENAME TO "tokens"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_tokens_digest" ON "tokens" ("digest")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_tokens_organization" ON "tokens" ("organization_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_tokens_team" ON "tokens" ("team_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_tokens_user" ON "tokens" ("user_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_tokens_team_description" ON "tokens" ("team_id", "description")
        `);
    // Every team token issued so far came from the one-token-per-team route.
    await queryRunner.query(`
            UPDATE "tokens" SET "legacy" = 1 WHERE "kind" = 'team'
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_tokens_team_description"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_tokens_user"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_tokens_team"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_tokens_organization"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_tokens_digest"
        `);
    await queryRunner.query(`
            ALTER TABLE "tokens"
                RENAME TO "temporary_tokens"
        `);
    await queryRunner.query(`
            CREATE TABLE "tokens" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "kind" varchar(16) NOT NULL,
                "digest" varchar(64) NOT NULL,
                "user_id" varchar(32),
                "team_id" varchar(32),
                "organization_id" varchar(32),
                "description" varchar(255),
                "expires_at" datetime(3),
                "created_at" datetime(3) NOT NULL,
                "last_used_at" datetime(3),
                CONSTRAINT "fk_tokens_user" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "fk_tokens_team" FOREIGN KEY ("team_id") REFERENCES "teams" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
                CONSTRAINT "fk_tokens_organization" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "tokens"(
                    "id",
                    "kind",
                    "digest",
                    "user_id",
                    "team_id",
                    "organization_id",
                    "description",
                    "expires_at",
                    "created_at",
                    "last_used_at"
                )
            SELECT "id",
                "kind",
                "digest",
                "user_id",
                "team_id",
                "organization_id",
                "description",
                "expires_at",
                "created_at",
                "last_used_at"
            FROM "temporary_tokens"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_tokens"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_tokens_user" ON "tokens" ("user_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_tokens_team" ON "tokens" ("team_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_tokens_organization" ON "tokens" ("organization_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_tokens_digest" ON "tokens" ("digest")
        `);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

export class PolicySetParameters1795784525884 implements MigrationInterface {
  name = 'PolicySetParameters1795784525884';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "policy_set_parameters" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "policy_set_id" varchar(32) NOT NULL,
                "key" varchar(128) NOT NULL,
                "key_digest" varchar(64) NOT NULL,
                "value" json,
                "sealed_value" json,
                "sensitive" boolean NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_policy_set_parameters_key" ON "policy_set_parameters" ("policy_set_id", "key_digest")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_policy_set_parameters_key"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_policy_set_parameters" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "policy_set_id" varchar(32) NOT NULL,
                "key" varchar(128) NOT NULL,
                "key_digest" varchar(64) NOT NULL,
                "value" json,
                "sealed_value" json,
                "sensitive" boolean NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL,
                CONSTRAINT "fk_policy_set_parameters_set" FOREIGN KEY ("policy_set_id") REFERENCES "policy_sets" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_policy_set_parameters"(
                    "id",
                    "policy_set_id",
                    "key",
                    "key_digest",
                    "value",
                    "sealed_value",
                    "sensitive",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "policy_set_id",
                "key",
                "key_digest",
                "value",
                "sealed_value",
                "sensitive",
                "created_at",
                "updated_at"
            FROM "policy_set_parameters"
        `);
    await queryRunner.query(`
            DROP TABLE "policy_set_parameters"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_policy_set_parameters"
                RENAME TO "policy_set_parameters"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_policy_set_parameters_key" ON "policy_set_parameters" ("policy_set_id", "key_digest")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_policy_set_parameters_key"
        `);
    await queryRunner.query(`
            ALTER TABLE "policy_set_parameters"
                RENAME TO "temporary_policy_set_parameters"
        `);
    await queryRunner.query(`
            CREATE TABLE "policy_set_parameters" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "policy_set_id" varchar(32) NOT NULL,
                "key" varchar(128) NOT NULL,
                "key_digest" varchar(64) NOT NULL,
                "value" json,
                "sealed_value" json,
                "sensitive" boolean NOT NULL DEFAULT (0),
                "created_at" datetime(3) NOT NULL,
                "updated_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            INSERT INTO "policy_set_parameters"(
                    "id",
                    "policy_set_id",
                    "key",
                    "key_digest",
                    "value",
                    "sealed_value",
                    "sensitive",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "policy_set_id",
                "key",
                "key_digest",
                "value",
                "sealed_value",
                "sensitive",
                "created_at",
                "updated_at"
            FROM "temporary_policy_set_parameters"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_policy_set_parameters"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_policy_set_parameters_key" ON "policy_set_parameters" ("policy_set_id", "key_digest")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_policy_set_parameters_key"
        `);
    await queryRunner.query(`
            DROP TABLE "policy_set_parameters"
        `);
  }
}

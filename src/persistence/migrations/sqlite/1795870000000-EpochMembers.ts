import { MigrationInterface, QueryRunner } from 'typeorm';

export class EpochMembers1795870000000 implements MigrationInterface {
  name = 'EpochMembers1795870000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "epoch_members" (
                "id" varchar(36) PRIMARY KEY NOT NULL,
                "lease_until" bigint NOT NULL,
                "alone" boolean NOT NULL DEFAULT (0)
            )
        `);
    // The members' lock (EpochLease): every change to epoch_members updates this row first.
    await queryRunner.query(`INSERT INTO "change_epoch" ("id", "value") VALUES (4, 0)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "change_epoch" WHERE "id" = 4`);
    await queryRunner.query(`
            DROP TABLE "epoch_members"
        `);
  }
}

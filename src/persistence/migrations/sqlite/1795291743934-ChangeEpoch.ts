import { MigrationInterface, QueryRunner } from 'typeorm';

export class ChangeEpoch1795291743934 implements MigrationInterface {
  name = 'ChangeEpoch1795291743934';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "change_epoch" (
                "id" integer PRIMARY KEY NOT NULL,
                "value" bigint NOT NULL DEFAULT (0)
            )
        `);
    // The one row every process reads and write requests advance (ChangeEpoch).
    await queryRunner.query(`INSERT INTO "change_epoch" ("id", "value") VALUES (1, 0)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP TABLE "change_epoch"
        `);
  }
}

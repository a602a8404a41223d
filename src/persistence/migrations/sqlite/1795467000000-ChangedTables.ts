import { MigrationInterface, QueryRunner } from 'typeorm';

export class ChangedTables1795467000000 implements MigrationInterface {
  name = 'ChangedTables1795467000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "changed_tables" (
                "name" varchar(64) PRIMARY KEY NOT NULL,
                "stamp" bigint NOT NULL DEFAULT (0)
            )
        `);
    // Advances that name their tables (ChangeEpoch); it starts level with the counter of all advances.
    await queryRunner.query(
      `INSERT INTO "change_epoch" ("id", "value") SELECT 3, "value" FROM "change_epoch" WHERE "id" = 1`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "change_epoch" WHERE "id" = 3`);
    await queryRunner.query(`
            DROP TABLE "changed_tables"
        `);
  }
}

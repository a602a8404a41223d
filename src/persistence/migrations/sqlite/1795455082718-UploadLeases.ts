import { MigrationInterface, QueryRunner } from 'typeorm';

export class UploadLeases1795455082718 implements MigrationInterface {
  name = 'UploadLeases1795455082718';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "upload_leases" (
                "id" varchar(32) PRIMARY KEY NOT NULL,
                "purpose" varchar(64) NOT NULL,
                "resource_id" varchar(32) NOT NULL,
                "blob_key" varchar(512) NOT NULL,
                "owner" varchar(32) NOT NULL,
                "expires_at" datetime(3) NOT NULL,
                "created_at" datetime(3) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_upload_leases_expires_at" ON "upload_leases" ("expires_at")
        `);
    // Versions a crash left `ingressing` before leases existed have no lease for the sweep to find.
    await queryRunner.query(
      `UPDATE "policy_set_versions" SET "status" = 'pending', "ingressing_at" = NULL WHERE "status" = 'ingressing'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_upload_leases_expires_at"
        `);
    await queryRunner.query(`
            DROP TABLE "upload_leases"
        `);
  }
}

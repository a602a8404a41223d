import { MigrationInterface, QueryRunner } from 'typeorm';

export class UploadLeases1795455182409 implements MigrationInterface {
  name = 'UploadLeases1795455182409';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`upload_leases\` (
                \`id\` varchar(32) NOT NULL,
                \`purpose\` varchar(64) NOT NULL,
                \`resource_id\` varchar(32) NOT NULL,
                \`blob_key\` varchar(512) NOT NULL,
                \`owner\` varchar(32) NOT NULL,
                \`expires_at\` datetime(3) NOT NULL,
                \`created_at\` datetime(3) NOT NULL,
                INDEX \`ix_upload_leases_expires_at\` (\`expires_at\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    // Versions a crash left `ingressing` before leases existed have no lease for the sweep to find.
    await queryRunner.query(
      `UPDATE \`policy_set_versions\` SET \`status\` = 'pending', \`ingressing_at\` = NULL WHERE \`status\` = 'ingressing'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`ix_upload_leases_expires_at\` ON \`upload_leases\`
        `);
    await queryRunner.query(`
            DROP TABLE \`upload_leases\`
        `);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/** Versions created through the API show the real service's marker, `tfe-api`, instead of `api`. */
export class PolicySetVersionSource1795465722218 implements MigrationInterface {
  name = 'PolicySetVersionSource1795465722218';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE "policy_set_versions" SET "source" = 'tfe-api' WHERE "source" = 'api'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE "policy_set_versions" SET "source" = 'api' WHERE "source" = 'tfe-api'`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

export class RunOptions1795785865193 implements MigrationInterface {
  name = 'RunOptions1795785865193';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`runs\`
            ADD \`refresh\` tinyint NOT NULL DEFAULT 1
        `);
    await queryRunner.query(`
            ALTER TABLE \`runs\`
            ADD \`refresh_only\` tinyint NOT NULL DEFAULT 0
        `);
    await queryRunner.query(`
            ALTER TABLE \`runs\`
            ADD \`target_addrs\` json NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`runs\`
            ADD \`replace_addrs\` json NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`runs\`
            ADD \`allow_empty_apply\` tinyint NOT NULL DEFAULT 0
        `);
    await queryRunner.query(`
            ALTER TABLE \`runs\`
            ADD \`allow_config_generation\` tinyint NOT NULL DEFAULT 0
        `);
    await queryRunner.query(`
            ALTER TABLE \`runs\`
            ADD \`save_plan\` tinyint NOT NULL DEFAULT 0
        `);
    await queryRunner.query(`
            ALTER TABLE \`runs\`
            ADD \`confirmed_at\` datetime(3) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`runs\`
            ADD \`terraform_version\` varchar(64) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`configuration_versions\`
            ADD \`provisional\` tinyint NOT NULL DEFAULT 0
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`configuration_versions\` DROP COLUMN \`provisional\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`runs\` DROP COLUMN \`terraform_version\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`runs\` DROP COLUMN \`confirmed_at\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`runs\` DROP COLUMN \`save_plan\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`runs\` DROP COLUMN \`allow_config_generation\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`runs\` DROP COLUMN \`allow_empty_apply\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`runs\` DROP COLUMN \`replace_addrs\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`runs\` DROP COLUMN \`target_addrs\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`runs\` DROP COLUMN \`refresh_only\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`runs\` DROP COLUMN \`refresh\`
        `);
  }
}

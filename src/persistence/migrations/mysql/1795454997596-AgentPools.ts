import { MigrationInterface, QueryRunner } from 'typeorm';

export class AgentPools1795454997596 implements MigrationInterface {
  name = 'AgentPools1795454997596';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`agent_pools\` (
                \`id\` varchar(32) NOT NULL,
                \`organization_id\` varchar(32) NOT NULL,
                \`name\` varchar(90) NOT NULL,
                \`organization_scoped\` tinyint NOT NULL DEFAULT 1,
                \`created_at\` datetime(3) NOT NULL,
                \`updated_at\` datetime(3) NOT NULL,
                UNIQUE INDEX \`uq_agent_pools_org_name\` (\`organization_id\`, \`name\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`agent_pool_allowed_workspaces\` (
                \`pool_id\` varchar(32) NOT NULL,
                \`workspace_id\` varchar(32) NOT NULL,
                INDEX \`ix_agent_pool_allowed_workspaces_workspace\` (\`workspace_id\`),
                PRIMARY KEY (\`pool_id\`, \`workspace_id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`agent_tokens\` (
                \`id\` varchar(32) NOT NULL,
                \`pool_id\` varchar(32) NOT NULL,
                \`digest\` varchar(64) NOT NULL,
                \`description\` varchar(255) NOT NULL,
                \`created_by_id\` varchar(32) NULL,
                \`last_used_at\` datetime(3) NULL,
                \`created_at\` datetime(3) NOT NULL,
                UNIQUE INDEX \`uq_agent_tokens_digest\` (\`digest\`),
                INDEX \`ix_agent_tokens_pool\` (\`pool_id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`agents\` (
                \`id\` varchar(32) NOT NULL,
                \`pool_id\` varchar(32) NOT NULL,
                \`token_id\` varchar(32) NULL,
                \`name\` varchar(255) NOT NULL,
                \`status\` varchar(16) NOT NULL,
                \`ip_address\` varchar(64) NULL,
                \`last_ping_at\` datetime(3) NOT NULL,
                \`created_at\` datetime(3) NOT NULL,
                INDEX \`ix_agents_pool\` (\`pool_id\`, \`last_ping_at\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            ALTER TABLE \`workspaces\`
            ADD \`execution_mode\` varchar(16) NOT NULL DEFAULT 'remote'
        `);
    await queryRunner.query(`
            ALTER TABLE \`workspaces\`
            ADD \`agent_pool_id\` varchar(32) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`workspaces\`
            ADD \`auto_apply\` tinyint NOT NULL DEFAULT 0
        `);
    await queryRunner.query(`
            ALTER TABLE \`workspaces\`
            ADD \`auto_apply_run_trigger\` tinyint NOT NULL DEFAULT 0
        `);
    await queryRunner.query(`
            CREATE INDEX \`ix_workspaces_agent_pool\` ON \`workspaces\` (\`agent_pool_id\`)
        `);
    await queryRunner.query(`
            ALTER TABLE \`agent_pools\`
            ADD CONSTRAINT \`fk_agent_pools_organization\` FOREIGN KEY (\`organization_id\`) REFERENCES \`organizations\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`workspaces\`
            ADD CONSTRAINT \`fk_workspaces_agent_pool\` FOREIGN KEY (\`agent_pool_id\`) REFERENCES \`agent_pools\`(\`id\`) ON DELETE RESTRICT ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`agent_pool_allowed_workspaces\`
            ADD CONSTRAINT \`fk_agent_pool_allowed_workspaces_pool\` FOREIGN KEY (\`pool_id\`) REFERENCES \`agent_pools\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`agent_pool_allowed_workspaces\`
            ADD CONSTRAINT \`fk_agent_pool_allowed_workspaces_workspace\` FOREIGN KEY (\`workspace_id\`) REFERENCES \`workspaces\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`agent_tokens\`
            ADD CONSTRAINT \`fk_agent_tokens_pool\` FOREIGN KEY (\`pool_id\`) REFERENCES \`agent_pools\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`agent_tokens\`
            ADD CONSTRAINT \`fk_agent_tokens_created_by\` FOREIGN KEY (\`created_by_id\`) REFERENCES \`users\`(\`id\`) ON DELETE
            SET NULL ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`agents\`
            ADD CONSTRAINT \`fk_agents_pool\` FOREIGN KEY (\`pool_id\`) REFERENCES \`agent_pools\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE \`agents\`
            ADD CONSTRAINT \`fk_agents_token\` FOREIGN KEY (\`token_id\`) REFERENCES \`agent_tokens\`(\`id\`) ON DELETE
            SET NULL ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`agents\` DROP FOREIGN KEY \`fk_agents_token\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`agents\` DROP FOREIGN KEY \`fk_agents_pool\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`agent_tokens\` DROP FOREIGN KEY \`fk_agent_tokens_created_by\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`agent_tokens\` DROP FOREIGN KEY \`fk_agent_tokens_pool\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`agent_pool_allowed_workspaces\` DROP FOREIGN KEY \`fk_agent_pool_allowed_workspaces_workspace\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`agent_pool_allowed_workspaces\` DROP FOREIGN KEY \`fk_agent_pool_allowed_workspaces_pool\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`workspaces\` DROP FOREIGN KEY \`fk_workspaces_agent_pool\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`agent_pools\` DROP FOREIGN KEY \`fk_agent_pools_organization\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_workspaces_agent_pool\` ON \`workspaces\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`workspaces\` DROP COLUMN \`auto_apply_run_trigger\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`workspaces\` DROP COLUMN \`auto_apply\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`workspaces\` DROP COLUMN \`agent_pool_id\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`workspaces\` DROP COLUMN \`execution_mode\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_agents_pool\` ON \`agents\`
        `);
    await queryRunner.query(`
            DROP TABLE \`agents\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_agent_tokens_pool\` ON \`agent_tokens\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_agent_tokens_digest\` ON \`agent_tokens\`
        `);
    await queryRunner.query(`
            DROP TABLE \`agent_tokens\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_agent_pool_allowed_workspaces_workspace\` ON \`agent_pool_allowed_workspaces\`
        `);
    await queryRunner.query(`
            DROP TABLE \`agent_pool_allowed_workspaces\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_agent_pools_org_name\` ON \`agent_pools\`
        `);
    await queryRunner.query(`
            DROP TABLE \`agent_pools\`
        `);
  }
}

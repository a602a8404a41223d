import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Clusters the audit events by organization and time: the primary key (InnoDB's clustered index)
 * becomes (organization_id, occurred_at, id), so that a page of an organization's trail is one
 * range of the table instead of a lookup by id per event; the id stays unique. Events of no
 * organization store '' (a primary key column is never NULL). One rebuild of the table, which
 * InnoDB does in place while writes go on.
 */
export class AuditEventsByOrganizationAndTime1795839981529 implements MigrationInterface {
  name = 'AuditEventsByOrganizationAndTime1795839981529';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            UPDATE \`audit_events\` SET \`organization_id\` = '' WHERE \`organization_id\` IS NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`audit_events\`
                DROP INDEX \`ix_audit_events_organization\`,
                DROP INDEX \`ix_audit_events_occurred_at\`,
                MODIFY \`organization_id\` varchar(32) NOT NULL DEFAULT '',
                DROP PRIMARY KEY,
                ADD PRIMARY KEY (\`organization_id\`, \`occurred_at\`, \`id\`),
                ADD UNIQUE INDEX \`ux_audit_events_id\` (\`id\`),
                ADD INDEX \`ix_audit_events_occurred_at\` (\`occurred_at\`, \`id\`)
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`audit_events\`
                DROP INDEX \`ix_audit_events_occurred_at\`,
                DROP INDEX \`ux_audit_events_id\`,
                DROP PRIMARY KEY,
                ADD PRIMARY KEY (\`id\`),
                MODIFY \`organization_id\` varchar(32) NULL,
                ADD INDEX \`ix_audit_events_organization\` (\`organization_id\`, \`occurred_at\`),
                ADD INDEX \`ix_audit_events_occurred_at\` (\`occurred_at\`)
        `);
    await queryRunner.query(`
            UPDATE \`audit_events\` SET \`organization_id\` = NULL WHERE \`organization_id\` = ''
        `);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

export class AccessEpoch1795400000000 implements MigrationInterface {
  name = 'AccessEpoch1795400000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    // The second counter: advanced only by writes that may change tokens or rights (ChangeEpoch).
    await queryRunner.query(`INSERT INTO \`change_epoch\` (\`id\`, \`value\`) VALUES (2, 0)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM \`change_epoch\` WHERE \`id\` = 2`);
  }
}

import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/** The gateway's own migration, run beside the orchestration module's on the gateway's connection. */
export class CreatePremiumMembers1767300000000 implements MigrationInterface {
  name = 'CreatePremiumMembers1767300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'gateway_premium_members',
        columns: [
          { name: 'tenant_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'user_id', type: 'varchar', length: '64', isPrimary: true },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('gateway_premium_members');
  }
}

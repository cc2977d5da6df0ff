import type { QueryRunner, TableColumnOptions } from 'typeorm';

/** Binary collations without trailing-space padding: MySQL 8 / TiDB, then MariaDB 10.2+. */
const NO_PAD_BINARY_COLLATIONS = ['utf8mb4_0900_bin', 'utf8mb4_nopad_bin'];

/**
 * `utf8mb4_bin` is a PAD SPACE collation: MySQL and MariaDB compare `'a'` and
 * `'a '` as equal, so unique keys and `=` filters would not be exact. This picks
 * the server's NO PAD binary collation for columns that must compare exactly;
 * on SQLite (always exact), or a server without one, the column is unchanged.
 */
export async function exactComparison(queryRunner: QueryRunner): Promise<(column: TableColumnOptions) => TableColumnOptions> {
  if (queryRunner.connection.options.type !== 'mysql') {
    return (column) => column;
  }
  const rows: { name: string }[] = await queryRunner.query(
    'SELECT COLLATION_NAME AS name FROM information_schema.COLLATIONS WHERE COLLATION_NAME IN (?, ?)',
    NO_PAD_BINARY_COLLATIONS,
  );
  const collation = NO_PAD_BINARY_COLLATIONS.find((name) => rows.some((row) => row.name === name));
  return (column) => (collation ? { ...column, charset: 'utf8mb4', collation } : column);
}

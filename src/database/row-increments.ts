import type { EntityManager } from 'typeorm';

/** Rows per statement, so that one stays far below SQLite's limit of values per statement. */
const ROWS_PER_STATEMENT = 500;

/**
 * Adds each of `rows` (the `keys` columns' values, then the `counts` columns') to the row of
 * `table` with that key, or inserts it: `INSERT … ON CONFLICT … DO UPDATE` on SQLite,
 * `ON DUPLICATE KEY UPDATE` on MySQL/MariaDB, so the database adds in one step (no row is read
 * here and written back, which racing writers could undo). Names are the caller's constants.
 */
export async function addToRows(
  manager: EntityManager,
  table: string,
  keys: readonly string[],
  counts: readonly string[],
  rows: readonly (readonly unknown[])[],
): Promise<void> {
  const sqlite = manager.connection.options.type === 'better-sqlite3';
  const added = counts
    .map((column) => (sqlite ? `${column} = ${table}.${column} + excluded.${column}` : `${column} = ${column} + VALUES(${column})`))
    .join(', ');
  const onKey = sqlite ? `ON CONFLICT (${keys.join(', ')}) DO UPDATE SET ${added}` : `ON DUPLICATE KEY UPDATE ${added}`;
  const row = `(${[...keys, ...counts].map(() => '?').join(', ')})`;
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const batch = rows.slice(start, start + ROWS_PER_STATEMENT);
    await manager.query(
      `INSERT INTO ${table} (${[...keys, ...counts].join(', ')}) VALUES ${batch.map(() => row).join(', ')} ${onKey}`,
      batch.flat(),
    );
  }
}

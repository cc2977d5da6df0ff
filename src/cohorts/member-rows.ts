import type { EntityManager } from 'typeorm';

/**
 * The SQL of member writes (docs/decisions/0008-cohorts.md), for SQLite and MySQL/MariaDB. Uploads are written to
 * a generation of their own (multi-row inserts), and merged or switched to in one transaction.
 */

/** Rows per multi-row INSERT (4 parameters each: well inside both databases' limits). */
const INSERT_ROWS = 1000;
/** Rows per statement when a step walks a whole generation on MySQL (each statement stays well inside the query timeout). */
const RANGE_ROWS = 20_000;
/** Rows per DELETE when an obsolete generation is purged, so no statement holds the database long. */
export const PURGE_ROWS = 10_000;

export interface Generation {
  tenantId: string;
  cohortId: number;
  generation: number;
}

interface Result {
  records: Record<string, unknown>[];
  affected: number;
}

const isSqlite = (manager: EntityManager): boolean => manager.connection.options.type === 'better-sqlite3';

async function run(manager: EntityManager, sql: string, parameters: unknown[]): Promise<Result> {
  const own = manager.queryRunner ? undefined : manager.connection.createQueryRunner();
  let result: { records?: unknown; affected?: number };
  try {
    result = (await (manager.queryRunner ?? own)!.query(sql, parameters, true)) as typeof result;
  } finally {
    await own?.release();
  }
  return {
    records: Array.isArray(result.records) ? (result.records as Record<string, unknown>[]) : [],
    affected: Number(result.affected ?? 0),
  };
}

/** Inserts `userIds` into the generation, skipping ids it already holds; answers how many were new. */
export async function insertMembers(manager: EntityManager, target: Generation, userIds: readonly string[]): Promise<number> {
  if (isSqlite(manager)) {
    // One statement whatever the count: the ids as one JSON parameter (SQLite's json_each).
    const sql = 'INSERT OR IGNORE INTO cohort_members (tenant_id, cohort_id, generation, user_id) SELECT ?, ?, ?, value FROM json_each(?)';
    return (await run(manager, sql, [target.tenantId, target.cohortId, target.generation, JSON.stringify(userIds)])).affected;
  }
  let inserted = 0;
  for (let start = 0; start < userIds.length; start += INSERT_ROWS) {
    const chunk = userIds.slice(start, start + INSERT_ROWS);
    const parameters: unknown[] = [];
    for (const userId of chunk) parameters.push(target.tenantId, target.cohortId, target.generation, userId);
    const rows = new Array(chunk.length).fill('(?, ?, ?, ?)').join(', ');
    inserted += (
      await run(manager, `INSERT IGNORE INTO cohort_members (tenant_id, cohort_id, generation, user_id) VALUES ${rows}`, parameters)
    ).affected;
  }
  return inserted;
}

/**
 * Deletes `userIds` from the generation; answers how many were there. On SQLite in one
 * statement (never seen half done on its one shared connection); on MySQL in chunks of the
 * caller's transaction.
 */
export async function deleteMembers(manager: EntityManager, target: Generation, userIds: readonly string[]): Promise<number> {
  if (isSqlite(manager)) {
    const sql =
      'DELETE FROM cohort_members WHERE tenant_id = ? AND cohort_id = ? AND generation = ? AND user_id IN (SELECT value FROM json_each(?))';
    return (await run(manager, sql, [target.tenantId, target.cohortId, target.generation, JSON.stringify(userIds)])).affected;
  }
  let deleted = 0;
  for (let start = 0; start < userIds.length; start += INSERT_ROWS) {
    const chunk = userIds.slice(start, start + INSERT_ROWS);
    const sql = `DELETE FROM cohort_members WHERE tenant_id = ? AND cohort_id = ? AND generation = ? AND user_id IN (${chunk.map(() => '?').join(', ')})`;
    deleted += (await run(manager, sql, [target.tenantId, target.cohortId, target.generation, ...chunk])).affected;
  }
  return deleted;
}

/**
 * Runs `step` over the generation `source` in user-id ranges: on SQLite at once (one
 * statement, never seen half done on its one shared connection), on MySQL in ranges of
 * RANGE_ROWS ids (each statement well inside the query timeout; the transaction makes them one).
 */
async function forEachRange(
  manager: EntityManager,
  source: Generation,
  step: (range: string, bounds: string[]) => Promise<void>,
): Promise<void> {
  if (isSqlite(manager)) {
    await step('', []);
    return;
  }
  let lower = '';
  for (;;) {
    const { records } = await run(
      manager,
      'SELECT user_id FROM cohort_members WHERE tenant_id = ? AND cohort_id = ? AND generation = ? AND user_id > ? ORDER BY user_id LIMIT 1 OFFSET ?',
      [source.tenantId, source.cohortId, source.generation, lower, RANGE_ROWS - 1],
    );
    const upper = records[0]?.user_id as string | undefined;
    if (upper === undefined) {
      await step(' AND s.user_id > ?', [lower]);
      return;
    }
    await step(' AND s.user_id > ? AND s.user_id <= ?', [lower, upper]);
    lower = upper;
  }
}

/** Copies the ids of `source` into `target` that it does not hold yet; answers how many. */
export async function mergeGeneration(manager: EntityManager, source: Generation, target: Generation): Promise<number> {
  const ignore = isSqlite(manager) ? 'INSERT OR IGNORE' : 'INSERT IGNORE';
  let merged = 0;
  await forEachRange(manager, source, async (range, bounds) => {
    const sql =
      `${ignore} INTO cohort_members (tenant_id, cohort_id, generation, user_id) ` +
      `SELECT s.tenant_id, s.cohort_id, ?, s.user_id FROM cohort_members s WHERE s.tenant_id = ? AND s.cohort_id = ? AND s.generation = ?${range}`;
    merged += (await run(manager, sql, [target.generation, source.tenantId, source.cohortId, source.generation, ...bounds])).affected;
  });
  return merged;
}

/** How many ids `source` and `other` (two generations of one cohort) have in common. */
export async function countCommon(manager: EntityManager, source: Generation, other: Generation): Promise<number> {
  let common = 0;
  await forEachRange(manager, source, async (range, bounds) => {
    const sql =
      'SELECT COUNT(*) AS common FROM cohort_members s JOIN cohort_members o ' +
      'ON o.tenant_id = s.tenant_id AND o.cohort_id = s.cohort_id AND o.generation = ? AND o.user_id = s.user_id ' +
      `WHERE s.tenant_id = ? AND s.cohort_id = ? AND s.generation = ?${range}`;
    const { records } = await run(manager, sql, [other.generation, source.tenantId, source.cohortId, source.generation, ...bounds]);
    common += Number(records[0]?.common ?? 0);
  });
  return common;
}

/** Deletes up to PURGE_ROWS rows of the cohort (of one generation, or all); answers how many. */
export async function purgeSome(manager: EntityManager, tenantId: string, cohortId: number, generation?: number): Promise<number> {
  const filter = `tenant_id = ? AND cohort_id = ?${generation === undefined ? '' : ' AND generation = ?'}`;
  const parameters = generation === undefined ? [tenantId, cohortId] : [tenantId, cohortId, generation];
  const sql = isSqlite(manager)
    ? `DELETE FROM cohort_members WHERE rowid IN (SELECT rowid FROM cohort_members WHERE ${filter} LIMIT ${PURGE_ROWS})`
    : `DELETE FROM cohort_members WHERE ${filter} LIMIT ${PURGE_ROWS}`;
  return (await run(manager, sql, parameters)).affected;
}

/** Whether the user is in the cohort's current generation. */
export async function isCurrentMember(manager: EntityManager, target: Generation, userId: string): Promise<boolean> {
  const { records } = await run(
    manager,
    'SELECT 1 AS found FROM cohort_members WHERE tenant_id = ? AND cohort_id = ? AND generation = ? AND user_id = ?',
    [target.tenantId, target.cohortId, target.generation, userId],
  );
  return records.length > 0;
}

/** The user's rows in the tenant's cohorts, of every generation (one range of `ix_cohort_members_tenant_user`). */
export async function rowsOfUser(manager: EntityManager, tenantId: string, userId: string): Promise<Generation[]> {
  const { records } = await run(manager, 'SELECT cohort_id, generation FROM cohort_members WHERE tenant_id = ? AND user_id = ?', [
    tenantId,
    userId,
  ]);
  return records.map((row) => ({ tenantId, cohortId: Number(row.cohort_id), generation: Number(row.generation) }));
}

/** Deletes the user's rows of the cohort in generations below `below` (every generation without it). */
export async function deleteUserRows(
  manager: EntityManager,
  tenantId: string,
  cohortId: number,
  userId: string,
  below?: number,
): Promise<void> {
  const filter = below === undefined ? '' : ' AND generation < ?';
  await run(manager, `DELETE FROM cohort_members WHERE tenant_id = ? AND cohort_id = ? AND user_id = ?${filter}`, [
    tenantId,
    cohortId,
    userId,
    ...(below === undefined ? [] : [below]),
  ]);
}

import type { Provider } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { ReadBatcher } from '../common/read-batcher';
import { ORCHESTRATION_DATA_SOURCE } from '../database/orchestration-data-source';
import { isDeadlockError } from '../database/driver-error';
import { createDriverReads, type DriverReads, executeOnPool, type MysqlPool } from '../database/driver-reads';
import { whenSqliteIdle } from '../database/snapshot-reads';

/** A user's state document as stored, with the version its conditional update checks. */
export interface StoredUserState {
  json: string;
  version: number;
  /** Counts of the user's writes not folded yet (opaque here: insights/insight-pending.ts), and when the first of them was written. */
  pendingInsights: string | null;
  pendingSince: number | null;
  /** What the insights counted of the user's lists, beyond the stored lists (opaque here: insights/insight-changes.ts). */
  insightMarks: string | null;
  /** The user's recent actions across all CTAs, for the exposure cap (opaque here: recent-actions.ts). */
  recentActions: string | null;
}

/** What a write stores for the insights: the pending counts and marks, and `pendingSince` as read (kept while counts are pending). */
export interface InsightsWrite {
  pending: string | null;
  pendingSinceBefore: number | null;
  marks: string | null;
}

interface PendingRead {
  userId: string;
  resolve(state: StoredUserState | undefined): void;
  reject(error: unknown): void;
}

/**
 * The `sdk_user_states` table on the launch hot path: primary-key reads, and one
 * conditional write (insert when the row is new, update when the version is still
 * the one read). A write answers false when another writer got there first; the
 * caller merges again on what is stored now (optimistic concurrency, docs/decisions/0006-user-state-merge.md).
 * Talks to the driver directly: the repository API costs several times the query
 * itself on this path.
 *
 * Reads are batched (`ReadBatcher`): the reads of one tenant issued in the same turn
 * of the event loop go out as one primary-key query, through the hot path's driver reads
 * (rows as arrays, statements prepared once); nothing read is kept past the request.
 *
 * A row is never deleted and its version only grows: a user's erase empties the document and
 * bumps the version (`eraseUserState`, user-data.ts), so a write resting on a read from before
 * the erase fails here — the update on its version, the insert on the key — and the caller merges
 * again onto the empty document (docs/decisions/0017-user-data-export-and-erase.md).
 *
 * A write may carry the user's insights (docs/decisions/0018-campaign-insights.md), its pending counts and
 * marks: they are stored by the same conditional statement as the document, so they count exactly
 * when it is stored. `pending_since` is set only when it changes: an indexed column costs a write
 * even set to its value.
 */
export abstract class UserStateStore {
  private readonly reads = new ReadBatcher<PendingRead>((tenantId, reads) => this.readBatch(tenantId, reads));

  read(tenantId: string, userId: string): Promise<StoredUserState | undefined> {
    return new Promise((resolve, reject) => this.reads.add(tenantId, { userId, resolve, reject }));
  }

  /**
   * `expectedVersion` undefined: insert a new row. Without `insights`, the row's insights columns stay as
   * they are; with `recentActions` undefined, so does its record of recent actions.
   */
  write(
    tenantId: string,
    userId: string,
    json: string,
    expectedVersion: number | undefined,
    now: number,
    insights?: InsightsWrite,
    recentActions?: string | null,
  ): Promise<boolean> {
    const { sql, values } = writeStatement(tenantId, userId, json, expectedVersion, now, insights, recentActions);
    return this.runWrite(sql, values);
  }

  /** Runs a write's statement: true when it stored the row, false when another writer got there first. */
  protected abstract runWrite(sql: string, values: unknown[]): Promise<boolean>;

  constructor(private readonly driverReads: DriverReads) {}

  /** The stored rows of up to MAX_READ_BATCH distinct users of one tenant (absent users have none). */
  protected async readMany(tenantId: string, userIds: string[]): Promise<UserStateRow[]> {
    return (await this.driverReads(selectUsers(userIds.length), [tenantId, ...userIds])) as UserStateRow[];
  }

  private async readBatch(tenantId: string, reads: PendingRead[]): Promise<void> {
    const rows = await this.readMany(tenantId, [...new Set(reads.map((read) => read.userId))]);
    const byUser = new Map(rows.map((row) => [row[0], row] as const));
    reads.forEach((read) => read.resolve(toStored(byUser.get(read.userId))));
  }
}

/** `SELECT … WHERE tenant_id = ? AND user_id IN (?, …)` for `size` users: a range of the primary key. */
const selectUsers = (size: number): string =>
  `SELECT user_id, state, version, pending_insights, pending_since, insight_marks, recent_actions FROM sdk_user_states WHERE tenant_id = ? AND user_id IN (${new Array(size).fill('?').join(', ')})`;

const UPDATE_SET = 'UPDATE sdk_user_states SET state = ?, version = version + 1, updated_at = ?';
const UPDATE_WHERE = 'WHERE tenant_id = ? AND user_id = ? AND version = ?';
const SET_INSIGHTS = ', pending_insights = ?, insight_marks = ?';
const SET_SINCE = ', pending_since = ?';
const SET_RECENT_ACTIONS = ', recent_actions = ?';
const INSERT =
  'INSERT INTO sdk_user_states (tenant_id, user_id, state, version, updated_at, pending_insights, insight_marks, pending_since, recent_actions) VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?)';

/**
 * A write's statement and values: the insert, or the conditional update of the document with the
 * insights (and `pending_since` when it changes) as `insights` says, and the recent actions when given.
 */
function writeStatement(
  tenantId: string,
  userId: string,
  json: string,
  expectedVersion: number | undefined,
  now: number,
  insights: InsightsWrite | undefined,
  recentActions: string | null | undefined,
): { sql: string; values: unknown[] } {
  const pending = insights?.pending ?? null;
  const marks = insights?.marks ?? null;
  const since = pending === null ? null : (insights?.pendingSinceBefore ?? now);
  if (expectedVersion === undefined) {
    return { sql: INSERT, values: [tenantId, userId, json, now, pending, marks, since, recentActions ?? null] };
  }
  let sql = UPDATE_SET;
  const values: unknown[] = [json, now];
  if (insights) {
    sql += SET_INSIGHTS;
    values.push(pending, marks);
    if (since !== insights.pendingSinceBefore) {
      sql += SET_SINCE;
      values.push(since);
    }
  }
  if (recentActions !== undefined) {
    sql += SET_RECENT_ACTIONS;
    values.push(recentActions);
  }
  return { sql: `${sql} ${UPDATE_WHERE}`, values: [...values, tenantId, userId, expectedVersion] };
}

/** A row as `selectUsers` lists its columns, as an array: no object per row (docs/benchmarks.md). */
type UserStateRow = [
  userId: string,
  state: string,
  version: number | string,
  pendingInsights: string | null,
  pendingSince: number | string | null,
  insightMarks: string | null,
  recentActions: string | null,
];

function toStored(row: UserStateRow | undefined): StoredUserState | undefined {
  if (row === undefined) return undefined;
  const [, json, version, pendingInsights, pendingSince, insightMarks, recentActions] = row;
  return {
    json,
    version: Number(version),
    pendingInsights,
    pendingSince: pendingSince === null ? null : Number(pendingSince),
    insightMarks,
    recentActions,
  };
}

/** The parts of a better-sqlite3 `Database` used here. */
interface SqliteDatabase {
  readonly inTransaction: boolean;
  prepare(sql: string): SqliteStatement;
}
interface SqliteStatement {
  all(...parameters: unknown[]): unknown[];
  run(...parameters: unknown[]): { changes: number };
}

/**
 * better-sqlite3 is synchronous and TypeORM shares its one connection: a write
 * issued while another request's TypeORM transaction is open would join (and
 * roll back with) that transaction. So a write waits until none is open and then
 * runs in the same tick, atomically with respect to everything else in the process.
 */
class SqliteUserStateStore extends UserStateStore {
  /** The write statements, by SQL text. */
  private readonly writes = new Map<string, SqliteStatement>();

  constructor(
    private readonly database: SqliteDatabase,
    driverReads: DriverReads,
  ) {
    super(driverReads);
  }

  protected runWrite(sql: string, values: unknown[]): Promise<boolean> {
    return whenSqliteIdle(this.database, () => {
      try {
        return this.prepared(sql).run(...values).changes === 1;
      } catch (error) {
        if ((error as { code?: string }).code?.startsWith('SQLITE_CONSTRAINT')) {
          return false;
        }
        throw error;
      }
    });
  }

  /** Prepared on first use: the table exists only once the migrations have run. */
  private prepared(sql: string): SqliteStatement {
    let statement = this.writes.get(sql);
    if (!statement) this.writes.set(sql, (statement = this.database.prepare(sql)));
    return statement;
  }
}

/** mysql2's `execute` prepares each statement once per pooled connection and reuses it. */
class MysqlUserStateStore extends UserStateStore {
  constructor(
    private readonly pool: () => MysqlPool,
    driverReads: DriverReads,
  ) {
    super(driverReads);
  }

  protected async runWrite(sql: string, values: unknown[]): Promise<boolean> {
    try {
      return ((await this.execute(sql, values)) as { affectedRows: number }).affectedRows === 1;
    } catch (error) {
      // Another writer got there first: a duplicate new row, or (Galera) a certification
      // conflict with a write made through another node, reported as a deadlock.
      if ((error as { code?: string }).code === 'ER_DUP_ENTRY' || isDeadlockError(error)) {
        return false;
      }
      throw error;
    }
  }

  private execute(sql: string, values: unknown[]): Promise<unknown> {
    return executeOnPool(this.pool(), sql, values);
  }
}

export function createUserStateStore(dataSource: DataSource): UserStateStore {
  const driver = dataSource.driver as unknown as { databaseConnection?: SqliteDatabase; pool?: MysqlPool };
  switch (dataSource.options.type) {
    case 'better-sqlite3':
      return new SqliteUserStateStore(driver.databaseConnection as SqliteDatabase, createDriverReads(dataSource));
    case 'mysql':
    case 'mariadb':
      // Read on each call, not captured: the driver (re)creates its pool when the DataSource connects.
      return new MysqlUserStateStore(() => driver.pool as MysqlPool, createDriverReads(dataSource));
    default:
      throw new Error(`the SDK state store does not support the database type ${dataSource.options.type}`);
  }
}

export const userStateStoreProvider: Provider = {
  provide: UserStateStore,
  useFactory: createUserStateStore,
  inject: [ORCHESTRATION_DATA_SOURCE],
};

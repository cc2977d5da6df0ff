import type { EntityManager } from 'typeorm';
import type { SqlStatement } from '../database/snapshot-reads';
import type { PendingInsightsStore, TakenInsights } from '../insights/pending-insights-store';
import { UserStateEntity } from './user-state.entity';

/**
 * The users' pending insights (docs/decisions/0018-campaign-insights.md) as the insights feature reads and
 * takes them: the text each state write keeps in `sdk_user_states.pending_insights` (opaque here), with
 * `pending_since`, when the oldest count in it was written (indexed, then the tenant: only users written
 * since the last fold have one).
 */

/** How many users one clearing statement names. */
const CLEARED_PER_STATEMENT = 250;

/** The statement that reads the pending insights of the tenant's users (a row each, `pending_insights`). */
const pendingInsightsOf = (tenantId: string): SqlStatement => ({
  sql: 'SELECT pending_insights FROM sdk_user_states WHERE pending_since IS NOT NULL AND tenant_id = ?',
  values: [tenantId],
});

/**
 * Takes the pending insights of up to `limit` users of any tenants, oldest first: clears them and
 * bumps each row's version, so that a write which read the row before fails its version check and
 * counts again on what is stored now. Null when one of the rows changed after it was read (possible
 * on Galera only, where row locks are a node's own): the caller rolls back and tries again.
 */
async function takePendingInsights(manager: EntityManager, limit: number): Promise<TakenInsights[] | null> {
  const lock = manager.connection.options.type === 'better-sqlite3' ? '' : ' FOR UPDATE';
  const rows: { tenant_id: string; user_id: string; version: number | string; pending_insights: string }[] = await manager.query(
    `SELECT tenant_id, user_id, version, pending_insights FROM sdk_user_states WHERE pending_since IS NOT NULL ORDER BY pending_since LIMIT ?${lock}`,
    [limit],
  );
  let cleared = 0;
  for (let start = 0; start < rows.length; start += CLEARED_PER_STATEMENT) {
    const batch = rows.slice(start, start + CLEARED_PER_STATEMENT);
    const parameters: Record<string, unknown> = {};
    const users = batch.map((row, index) => {
      Object.assign(parameters, { [`t${index}`]: row.tenant_id, [`u${index}`]: row.user_id, [`v${index}`]: row.version });
      return `(tenant_id = :t${index} AND user_id = :u${index} AND version = :v${index})`;
    });
    const { affected } = await manager
      .createQueryBuilder()
      .update(UserStateEntity)
      .set({ pendingInsights: null, pendingSince: null, version: () => 'version + 1' })
      .where(users.join(' OR '), parameters)
      .execute();
    cleared += affected ?? 0;
  }
  return cleared === rows.length ? rows.map((row) => ({ tenantId: row.tenant_id, pending: row.pending_insights })) : null;
}

/** The insights feature's store of pending insights: these rows (bound in src/orchestration-ports.ts). */
export const sdkPendingInsights: PendingInsightsStore = { pendingOf: pendingInsightsOf, take: takePendingInsights };

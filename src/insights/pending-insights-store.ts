import type { EntityManager } from 'typeorm';
import type { SqlStatement } from '../database/snapshot-reads';

/** One user's pending insights, taken. */
export interface TakenInsights {
  tenantId: string;
  pending: string;
}

/**
 * Where the users' pending insights wait for the fold (docs/decisions/0018-campaign-insights.md): the text each
 * state write keeps beside the user's state (opaque to the store), oldest first. A port: the SDK, which writes
 * them in its own rows, answers it, bound in src/orchestration-ports.ts
 * (docs/decisions/0027-one-way-features-and-ports.md).
 */
export abstract class PendingInsightsStore {
  /** The statement that reads the pending insights of the tenant's users (a row each, `pending_insights`). */
  abstract pendingOf(tenantId: string): SqlStatement;

  /**
   * Takes the pending insights of up to `limit` users of any tenants, oldest first, clearing them; null when
   * one of the rows changed after it was read (Galera): the caller rolls back and tries again.
   */
  abstract take(manager: EntityManager, limit: number): Promise<TakenInsights[] | null>;
}

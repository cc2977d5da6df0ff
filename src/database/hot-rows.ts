import type { EntityManager } from 'typeorm';
import { causalReadPrefix } from './causal-reads';

/**
 * Runs `writes` — statements of the caller's transaction on a row that clients through other nodes
 * of a Galera cluster keep writing (a hot row: a user's state, which their deltas write) — with each
 * statement replicated as it runs (Galera's streaming replication, one fragment per statement), then
 * turns that off again. Once the row's write is certified it is locked on every node until the
 * commit, so the rest of the transaction no longer loses certification to those clients; otherwise
 * any of them committing before the whole transaction does would make it run again
 * (docs/decisions/0011-scale-out-on-galera.md). Anywhere else it only runs `writes`: one server's row
 * lock already holds them off.
 */
export async function writeHotRow<T>(manager: EntityManager, writes: () => Promise<T>): Promise<T> {
  // The causal-read prefix is Galera's mark: it is only set where wsrep is on.
  if ((await causalReadPrefix(manager.connection)) === '') {
    return writes();
  }
  await manager.query("SET SESSION wsrep_trx_fragment_unit = 'statements', wsrep_trx_fragment_size = 1");
  try {
    return await writes();
  } finally {
    // The connection goes back to the pool: the next transaction on it replicates at its commit again.
    await manager.query('SET SESSION wsrep_trx_fragment_size = 0');
  }
}

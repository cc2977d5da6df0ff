import type { DataSource } from 'typeorm';

const prefixes = new WeakMap<DataSource, Promise<string>>();

/**
 * What to put before a SELECT so that it sees every write committed anywhere before it
 * started. A Galera node applies the other nodes' commits a moment after they return, so
 * a plain read there can miss a write another instance already acknowledged
 * (docs/decisions/0006-user-state-merge.md, docs/decisions/0011-scale-out-on-galera.md); `wsrep_sync_wait`
 * makes the read wait for them first. Empty elsewhere: one MySQL/MariaDB server or SQLite reads its own commits. Asked of the server once.
 */
export function causalReadPrefix(dataSource: DataSource): Promise<string> {
  let prefix = prefixes.get(dataSource);
  if (!prefix) {
    prefix = dataSource.options.type === 'mysql' ? galeraPrefix(dataSource) : Promise.resolve('');
    prefixes.set(dataSource, prefix);
  }
  return prefix;
}

async function galeraPrefix(dataSource: DataSource): Promise<string> {
  try {
    const [row] = (await dataSource.query("SHOW VARIABLES LIKE 'wsrep_on'")) as { Value?: string }[];
    return row?.Value === 'ON' ? 'SET STATEMENT wsrep_sync_wait = 1 FOR ' : '';
  } catch (error) {
    // Asked again next time: an outage must not settle the answer.
    prefixes.delete(dataSource);
    throw error;
  }
}

/**
 * Waits until this node has applied every write committed anywhere before the call (Galera), so a
 * transaction begun afterwards on this database sees all of them; nothing elsewhere. It runs before
 * the transaction: inside one, the server skips the causality wait.
 */
export async function catchUpWithCluster(dataSource: DataSource): Promise<void> {
  const prefix = await causalReadPrefix(dataSource);
  if (prefix !== '') {
    await dataSource.query(`${prefix}SELECT 1`);
  }
}

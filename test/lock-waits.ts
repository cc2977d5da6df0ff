import { setTimeout as sleep } from 'node:timers/promises';
import type { QueryRunner } from 'typeorm';

/**
 * InnoDB refills information_schema.INNODB_TRX only when nobody read it for 0.1 s: a read sooner
 * after the last one (this poll's, or the previous test's) answers the old list.
 */
const TRX_CACHE_IDLE_MS = 150;
let lastReadAt = 0;

/**
 * Resolves once a transaction of another connection to the schema of `holder` waits for a lock
 * (MySQL/MariaDB): the hook by which a test knows a request has run into the rows `holder` keeps
 * locked, rather than hoping a sleep was long enough. Polls; fails after `timeoutMs`.
 */
export async function untilAnotherTransactionWaits(holder: QueryRunner, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    await sleep(Math.max(0, lastReadAt + TRX_CACHE_IDLE_MS - Date.now()));
    const [{ waiting }] = await holder.query(
      `SELECT COUNT(*) AS waiting FROM information_schema.INNODB_TRX trx
         JOIN information_schema.PROCESSLIST process ON process.ID = trx.trx_mysql_thread_id
        WHERE trx.trx_state = 'LOCK WAIT' AND process.DB = DATABASE() AND process.ID <> CONNECTION_ID()`,
    );
    lastReadAt = Date.now();
    if (Number(waiting) > 0) {
      return;
    }
  }
  throw new Error(`no other transaction came to wait for a lock within ${timeoutMs} ms`);
}

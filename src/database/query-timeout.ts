import { EventSubscriber, type EntitySubscriberInterface } from 'typeorm';
import type { AfterQueryEvent } from 'typeorm/subscriber/event/QueryEvent';

/**
 * How long a MySQL/MariaDB query may take before it fails (with a 503 to the
 * client). Through a network partition nothing fails by itself: without a
 * bound, requests would hang and the pool would fill (docs/decisions/0022-database-outages.md: never hang).
 */
export const QUERY_TIMEOUT_MS = 10_000;

/** mysql2's code for a query that outlived its `timeout`. */
const QUERY_TIMEOUT_CODE = 'PROTOCOL_SEQUENCE_TIMEOUT';

export const isQueryTimeout = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === QUERY_TIMEOUT_CODE;

/**
 * Whether a connection that answered `error` can take another command. mysql2 marks an error that
 * closed the connection `fatal` (the network dropped, the server went away): a command added then
 * (unprepare, another query) throws outside any promise and would bring the process down. A timeout
 * is fatal as well. `timedExecute` destroys such a connection, so that a pool never lends it again.
 */
export const connectionUsableAfter = (error: unknown): boolean => !(error as { fatal?: unknown } | null)?.fatal && !isQueryTimeout(error);

interface DestroyableConnection {
  destroy(): void;
}

/**
 * Destroys a connection whose query timed out. mysql2 fails the query but keeps
 * waiting for its answer on the connection, and every later command there (the
 * transaction's ROLLBACK, the next borrower's query) queues behind it with no
 * timeout of its own: the hang again. Destroyed, the connection leaves the
 * pool; the ROLLBACK fails at once (the server rolls the transaction back when
 * the connection drops) and the original error answers 503.
 */
@EventSubscriber()
export class TimedOutConnectionSubscriber implements EntitySubscriberInterface {
  afterQuery(event: AfterQueryEvent): void {
    if (!event.success && isQueryTimeout(event.error)) {
      (event.queryRunner as unknown as { databaseConnection?: DestroyableConnection }).databaseConnection?.destroy();
    }
  }
}

type ExecuteCallback<T> = (error: (Error & { code?: string }) | null, result: T) => void;

/** The parts of a mysql2 (callback API) connection a timed execute uses. */
export interface ExecutingConnection<T> {
  execute(options: { sql: string; values: unknown[]; timeout?: number; rowsAsArray?: boolean }, callback: ExecuteCallback<T>): void;
  destroy(): void;
}

/**
 * mysql2's `execute` bounded by `timeout` from the start: mysql2 arms a statement's timeout only once
 * it is prepared, so through a partition a PREPARE would wait for the network to return (measured: the
 * whole 13 s stall of test/database-outage.e2e-spec.ts). Past `timeout` the connection is destroyed (as
 * above) and the callback gets mysql2's own timeout error, which answers 503. `settled` runs once, with
 * the connection still usable unless `connectionUsableAfter` says otherwise.
 */
export function timedExecute<T>(
  connection: ExecutingConnection<T>,
  options: { sql: string; values: unknown[]; timeout?: number; rowsAsArray?: boolean },
  settled: ExecuteCallback<T>,
): void {
  let done = false;
  const finish: ExecuteCallback<T> = (error, result) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    if (!connectionUsableAfter(error)) connection.destroy();
    settled(error, result);
  };
  const timer =
    options.timeout === undefined
      ? undefined
      : setTimeout(
          () => finish(Object.assign(new Error('Query inactivity timeout'), { code: QUERY_TIMEOUT_CODE, fatal: true }), undefined as T),
          options.timeout,
        );
  connection.execute(options, finish);
}

import { someDriverError } from './driver-error';

/**
 * Driver error codes that mean "the database cannot be reached right now"
 * (a retry later can succeed), as opposed to a bad query.
 */
const UNAVAILABLE_CODES = new Set([
  // network (mysql2 and Node)
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'POOL_CLOSED',
  // MySQL / MariaDB server states
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  // a Galera node outside the primary component (lost quorum, or not yet synced): "WSREP has not yet prepared node"
  'ER_UNKNOWN_COM_ERROR',
  'ER_LOCK_WAIT_TIMEOUT',
  // SQLite: another writer held the lock past busy_timeout
  'SQLITE_BUSY',
]);

/**
 * Errors about what was sent, not about the database: a retry of the same
 * request fails the same way, so they are never an outage (a 500, not a 503 with
 * `Retry-After`, docs/decisions/0022-database-outages.md), even when the server drops the connection over them.
 */
const NOT_OUTAGE_CODES = new Set(['ER_NET_PACKET_TOO_LARGE', 'ER_DATA_TOO_LONG', 'ER_TOO_BIG_ROWSIZE', 'SQLITE_TOOBIG']);

/**
 * One of the codes above, or an error mysql2 marks `fatal`: one that ended the
 * connection (a network or protocol failure, or a command sent on a connection
 * that had just died, which carries no code), never a bad query.
 */
export const isDatabaseUnavailable = (error: unknown): boolean =>
  !someDriverError(error, ({ code }) => typeof code === 'string' && NOT_OUTAGE_CODES.has(code)) &&
  someDriverError(error, ({ code, fatal }) => fatal === true || (typeof code === 'string' && UNAVAILABLE_CODES.has(code)));

/** What made the database unavailable, for the outage log: the driver's code, or `CONNECTION_LOST` for a fatal error without one. */
export function outageCause(error: unknown): string {
  let cause = 'CONNECTION_LOST';
  someDriverError(error, ({ code }) => {
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) {
      cause = code;
      return true;
    }
    return false;
  });
  return cause;
}

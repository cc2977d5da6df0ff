import { hasDriverErrorCode } from './driver-error';

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
  'ER_LOCK_WAIT_TIMEOUT',
  // SQLite: another writer held the lock past busy_timeout
  'SQLITE_BUSY',
]);

export const isDatabaseUnavailable = (error: unknown): boolean => hasDriverErrorCode(error, UNAVAILABLE_CODES);

import { hasDriverErrorCode } from './driver-error';

/**
 * Driver error codes of a write refused by a primary or unique key. Callers turn
 * them into the 400 of the rule the key enforces (a taken name, a CTA already linked).
 */
const DUPLICATE_KEY_CODES = new Set([
  // MySQL / MariaDB (errno 1062)
  'ER_DUP_ENTRY',
  // better-sqlite3
  'SQLITE_CONSTRAINT_PRIMARYKEY',
  'SQLITE_CONSTRAINT_UNIQUE',
]);

export const isDuplicateKeyError = (error: unknown): boolean => hasDriverErrorCode(error, DUPLICATE_KEY_CODES);

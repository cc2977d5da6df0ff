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

/** TypeORM wraps driver errors (`QueryFailedError.driverError`); look through the wrappers. */
export function isDuplicateKeyError(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    const { code, driverError, cause } = current as { code?: unknown; driverError?: unknown; cause?: unknown };
    if (typeof code === 'string' && DUPLICATE_KEY_CODES.has(code)) {
      return true;
    }
    current = driverError ?? cause;
  }
  return false;
}

/**
 * Whether a failed query carries one of `codes` as its driver error code.
 * TypeORM wraps driver errors (`QueryFailedError.driverError`); this looks through the wrappers.
 */
export function hasDriverErrorCode(error: unknown, codes: ReadonlySet<string>): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    const { code, driverError, cause } = current as { code?: unknown; driverError?: unknown; cause?: unknown };
    if (typeof code === 'string' && codes.has(code)) {
      return true;
    }
    current = driverError ?? cause;
  }
  return false;
}

const DEADLOCK_CODES: ReadonlySet<string> = new Set(['ER_LOCK_DEADLOCK']);

/** MySQL/MariaDB chose this transaction as a deadlock victim and rolled it back whole (errno 1213). */
export const isDeadlockError = (error: unknown): boolean => hasDriverErrorCode(error, DEADLOCK_CODES);

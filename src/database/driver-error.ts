interface DriverErrorFields {
  code?: unknown;
  fatal?: unknown;
  driverError?: unknown;
  cause?: unknown;
}

/**
 * Whether a failed query, or the driver error it wraps, passes `test`.
 * TypeORM wraps driver errors (`QueryFailedError.driverError`); this looks through the wrappers.
 */
export function someDriverError(error: unknown, test: (fields: DriverErrorFields) => boolean): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    const fields = current as DriverErrorFields;
    if (test(fields)) {
      return true;
    }
    current = fields.driverError ?? fields.cause;
  }
  return false;
}

/** Whether a failed query carries one of `codes` as its driver error code. */
export const hasDriverErrorCode = (error: unknown, codes: ReadonlySet<string>): boolean =>
  someDriverError(error, ({ code }) => typeof code === 'string' && codes.has(code));

const DEADLOCK_CODES: ReadonlySet<string> = new Set(['ER_LOCK_DEADLOCK']);

/**
 * MySQL/MariaDB chose this transaction as a deadlock victim and rolled it back whole (errno 1213).
 * Galera reports a certification conflict (another node's write to the same rows came first) the same way.
 */
export const isDeadlockError = (error: unknown): boolean => hasDriverErrorCode(error, DEADLOCK_CODES);

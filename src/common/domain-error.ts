import { ErrorCode } from './error-code';

/**
 * The only error services throw. It carries a code, never an HTTP status:
 * the global exception filter maps the code to a status.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra response headers, e.g. `Retry-After` for RATE_LIMITED. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** What a client is told while the database is unreachable: retry after a few seconds (docs/decisions/0022-database-outages.md). */
export const databaseUnavailable = (): DomainError =>
  new DomainError(ErrorCode.SERVICE_UNAVAILABLE, 'the database is unavailable, retry later', { 'retry-after': '5' });

/**
 * What a client is told when its transaction kept losing to conflicting writes (deadlocks, or lost
 * certification on Galera): nothing was written, and the same request can succeed a moment later.
 * A class of its own, so that a log can tell this expected contention from a fault.
 */
export class ConflictingWrites extends DomainError {
  constructor() {
    super(ErrorCode.SERVICE_UNAVAILABLE, 'too many conflicting writes at once, nothing was changed; retry later', { 'retry-after': '1' });
  }
}

export const conflictingWrites = (): DomainError => new ConflictingWrites();

export const invalidRequest = (message: string): DomainError => new DomainError(ErrorCode.INVALID_REQUEST, message);

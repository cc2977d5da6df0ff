import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable } from './database-unavailable';

const driverError = (code: string) => Object.assign(new Error(code), { code });

describe('isDatabaseUnavailable', () => {
  it.each(['ECONNREFUSED', 'PROTOCOL_CONNECTION_LOST', 'ETIMEDOUT', 'SQLITE_BUSY'])('is true for %s', (code) => {
    expect(isDatabaseUnavailable(driverError(code))).toBe(true);
    expect(isDatabaseUnavailable(new QueryFailedError('SELECT 1', [], driverError(code)))).toBe(true);
  });

  it('is false for query errors and non-errors', () => {
    expect(isDatabaseUnavailable(new QueryFailedError('SELECT', [], driverError('ER_PARSE_ERROR')))).toBe(false);
    expect(isDatabaseUnavailable(driverError('SQLITE_CONSTRAINT_UNIQUE'))).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});

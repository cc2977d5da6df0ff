import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable, outageCause } from './database-unavailable';

const driverError = (code: string) => Object.assign(new Error(code), { code });

describe('isDatabaseUnavailable', () => {
  it.each(['ECONNREFUSED', 'PROTOCOL_CONNECTION_LOST', 'ETIMEDOUT', 'ER_UNKNOWN_COM_ERROR', 'SQLITE_BUSY'])('is true for %s', (code) => {
    expect(isDatabaseUnavailable(driverError(code))).toBe(true);
    expect(isDatabaseUnavailable(new QueryFailedError('SELECT 1', [], driverError(code)))).toBe(true);
  });

  it('is true for an error mysql2 marks fatal, even without a code (a command on a connection that just died)', () => {
    const closed = Object.assign(new Error("Can't add new command when connection is in closed state"), { fatal: true });
    expect(isDatabaseUnavailable(closed)).toBe(true);
    expect(isDatabaseUnavailable(new QueryFailedError('SELECT 1', [], closed))).toBe(true);
  });

  it('is true for a query that outlived its timeout', () => {
    expect(isDatabaseUnavailable(new QueryFailedError('SELECT 1', [], driverError('PROTOCOL_SEQUENCE_TIMEOUT')))).toBe(true);
  });

  it('is false for query errors and non-errors', () => {
    expect(isDatabaseUnavailable(new QueryFailedError('SELECT', [], Object.assign(driverError('ER_DUP_ENTRY'), { fatal: false })))).toBe(
      false,
    );
    expect(isDatabaseUnavailable(new QueryFailedError('SELECT', [], driverError('ER_PARSE_ERROR')))).toBe(false);
    expect(isDatabaseUnavailable(driverError('SQLITE_CONSTRAINT_UNIQUE'))).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });

  it.each(['ER_NET_PACKET_TOO_LARGE', 'ER_DATA_TOO_LONG', 'ER_TOO_BIG_ROWSIZE'])(
    'is false for %s, even when the connection dropped over it',
    (code) => {
      const error = Object.assign(driverError(code), { fatal: true });
      expect(isDatabaseUnavailable(error)).toBe(false);
      expect(isDatabaseUnavailable(new QueryFailedError('UPDATE', [], error))).toBe(false);
    },
  );
});

describe('outageCause', () => {
  it("names the driver's code, or CONNECTION_LOST for a fatal error without one", () => {
    expect(outageCause(new QueryFailedError('SELECT 1', [], driverError('ECONNREFUSED')))).toBe('ECONNREFUSED');
    expect(outageCause(Object.assign(new Error('closed state'), { fatal: true }))).toBe('CONNECTION_LOST');
  });
});

import { expectDomainError } from '../../test/expect-thrown';
import { DomainError } from './domain-error';
import { ErrorCode } from './error-code';
import { parseEventSource, parseOperatorUser, parseSdkClientInfo, parseSdkUserId, parseTenantId } from './request-headers';

/** The INVALID_REQUEST a parser throws, for `toThrow(…)`. */
const failure = (parse: () => unknown): DomainError => expectDomainError(parse, ErrorCode.INVALID_REQUEST);

describe('parseTenantId', () => {
  it('defaults to `default` when absent or empty', () => {
    expect(parseTenantId({})).toBe('default');
    expect(parseTenantId({ 'x-tenant-id': '' })).toBe('default');
  });

  it.each(['acme', 'A-Z.a_z-0.9', 'x'.repeat(64), '007'])('accepts %s', (tenant) => {
    expect(parseTenantId({ 'x-tenant-id': tenant })).toBe(tenant);
  });

  it.each(['x'.repeat(65), 'a b', '../etc', 'tenant/1', 'ünïcode', ' acme', 'acme;drop'])('refuses %p naming the header', (tenant) => {
    expect(failure(() => parseTenantId({ 'x-tenant-id': tenant })).message).toBe(
      "header 'x-tenant-id' must be 1-64 characters of A-Z, a-z, 0-9, '.', '_' or '-'",
    );
  });

  it('reads a repeated header as its first value', () => {
    expect(parseTenantId({ 'x-tenant-id': ['first', 'second'] as unknown as string })).toBe('first');
  });
});

describe('parseOperatorUser', () => {
  it('answers the trimmed user', () => {
    expect(parseOperatorUser({ user: '  ops@example.com ' })).toBe('ops@example.com');
    expect(parseOperatorUser({ user: 'u'.repeat(255) })).toBe('u'.repeat(255));
  });

  it('refuses a missing user as required, unless there is a fallback', () => {
    expect(failure(() => parseOperatorUser({})).message).toBe("header 'user' is required");
    expect(parseOperatorUser({}, 'panel@example.com')).toBe('panel@example.com');
    expect(parseOperatorUser({ user: 'ops@example.com' }, 'panel@example.com')).toBe('ops@example.com');
  });

  it.each([
    ['empty', { user: '' }],
    ['blank', { user: '   ' }],
  ])('refuses a %s user, even with a fallback', (_case, headers) => {
    expect(failure(() => parseOperatorUser(headers)).message).toBe("header 'user' must not be blank");
    expect(failure(() => parseOperatorUser(headers, 'panel@example.com')).message).toBe("header 'user' must not be blank");
  });

  it('refuses a user longer than 255 characters', () => {
    expect(failure(() => parseOperatorUser({ user: 'u'.repeat(256) })).message).toBe("header 'user' must be at most 255 characters");
  });
});

describe('parseSdkUserId', () => {
  it.each([
    ['42', '42'],
    [' 42 ', '42'],
    ['007', '7'],
    ['-5', '-5'],
    ['9223372036854775807', '9223372036854775807'],
    ['-9223372036854775808', '-9223372036854775808'],
    ['0000000000000000000000042', '42'],
    ['-0', '0'],
  ])('accepts %p as %p, never through a JS number', (header, userId) => {
    expect(parseSdkUserId({ 'auth-userid': header })).toBe(userId);
  });

  it.each([
    ['missing', {}],
    ['blank', { 'auth-userid': ' ' }],
  ])('refuses a %s auth-userid as required', (_case, headers) => {
    expect(failure(() => parseSdkUserId(headers)).message).toBe("header 'auth-userid' is required");
  });

  it.each(['12a', '1.5', '1e3', '0x10', '+1', '--1', '-', '4 2'])('refuses %p as not a decimal integer', (header) => {
    expect(failure(() => parseSdkUserId({ 'auth-userid': header })).message).toBe("header 'auth-userid' must be a decimal integer");
  });

  it.each(['9223372036854775808', '-9223372036854775809', '9999999999999999999', '99999999999999999999', '1'.repeat(10_000)])(
    'refuses %p as beyond a signed 64-bit integer',
    (header) => {
      expect(failure(() => parseSdkUserId({ 'auth-userid': header })).message).toBe(
        "header 'auth-userid' does not fit a signed 64-bit integer",
      );
    },
  );
});

describe('parseSdkClientInfo', () => {
  it('answers nulls without headers', () => {
    expect(parseSdkClientInfo({})).toEqual({ apiVersion: null, appVersion: null, packageName: null, hotpatchVersion: null });
  });

  it.each([
    ['1', 1],
    [' 2 ', 2],
    ['0', 0],
    ['-1', -1],
    ['abc', null],
    ['1.5', null],
    ['', null],
    ['1'.repeat(16), null],
  ])('reads api_version %p as %p', (header, apiVersion) => {
    expect(parseSdkClientInfo({ api_version: header }).apiVersion).toBe(apiVersion);
  });

  it('reads the headers with underscores, as the SDK sends them, or with hyphens', () => {
    expect(parseSdkClientInfo({ api_version: '1', app_version: '5.2.0', package_name: 'com.example.app', hotpatch_version: 'h7' })).toEqual(
      {
        apiVersion: 1,
        appVersion: '5.2.0',
        packageName: 'com.example.app',
        hotpatchVersion: 'h7',
      },
    );
    expect(parseSdkClientInfo({ 'api-version': '3', 'app-version': '6', 'package-name': 'p', 'hotpatch-version': 'h' })).toEqual({
      apiVersion: 3,
      appVersion: '6',
      packageName: 'p',
      hotpatchVersion: 'h',
    });
  });

  it('takes codepush_version as hotpatch_version, which wins when both are sent', () => {
    expect(parseSdkClientInfo({ codepush_version: 'cp1' }).hotpatchVersion).toBe('cp1');
    expect(parseSdkClientInfo({ 'codepush-version': 'cp2' }).hotpatchVersion).toBe('cp2');
    expect(parseSdkClientInfo({ hotpatch_version: 'h1', codepush_version: 'cp1' }).hotpatchVersion).toBe('h1');
  });
});

describe('parseEventSource', () => {
  it('defaults to admin-api when absent or blank', () => {
    expect(parseEventSource({})).toBe('admin-api');
    expect(parseEventSource({ 'x-source': '  ' })).toBe('admin-api');
  });

  it('answers the trimmed source, up to 255 characters', () => {
    expect(parseEventSource({ 'x-source': ' crm ' })).toBe('crm');
    expect(parseEventSource({ 'x-source': 's'.repeat(255) })).toBe('s'.repeat(255));
    expect(failure(() => parseEventSource({ 'x-source': 's'.repeat(256) })).message).toBe(
      "header 'x-source' must be at most 255 characters",
    );
  });
});

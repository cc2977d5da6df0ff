import { availableParallelism } from 'node:os';
import { expectThrown } from '../../test/expect-thrown';
import { InvalidConfigError, loadAppConfig } from './app-config';

/** The error a bad environment stops the service with. */
const failure = (env: Record<string, string>): InvalidConfigError => expectThrown(InvalidConfigError, () => loadAppConfig(env));

describe('loadAppConfig', () => {
  it('fills every default from an empty environment', () => {
    expect(loadAppConfig({})).toEqual({
      port: 3000,
      host: '0.0.0.0',
      dbUrl: undefined,
      dbMigrationsRun: true,
      adminPrefix: 'engine',
      adminPrefixAliases: [],
      sdkPrefix: 'cta',
      bodyLimitBytes: 1024 * 1024,
      sdkBodyLimitBytes: 1_048_576,
      largeBodyLane: { slots: 1, maxWaiting: 64, maxWaitMs: 10_000 },
      corsOrigins: ['*'],
      logLevel: 'info',
      schedulerIntervalMs: 10_000,
      cacheRevalidateMs: 1_000,
      catalogueCacheMaxTenants: 10_000,
      maxMachinesPerCta: 100,
      maxUserStateBytes: 262_144,
      ctaTimeToleranceMs: 120_000,
      ctaTimeHorizonDays: 1825,
      adminApiKeys: [],
      sdkApiKeys: [],
      sdkAppUserTokens: null,
      shutdownTimeoutMs: 10_000,
      adminRateLimitPerMinute: 0,
      sdkRateLimitPerMinute: 0,
      cohortUploadLimitBytes: 268435456,
      auditRetentionDays: 0,
      adminDefaultUser: null,
      approvalsRequired: false,
    });
  });

  it('reads blank values as unset', () => {
    expect(loadAppConfig({ PORT: ' ', DB_URL: '', LOG_LEVEL: '  ', CORS_ORIGINS: ' , ' })).toMatchObject({
      port: 3000,
      dbUrl: undefined,
      logLevel: 'info',
      corsOrigins: ['*'],
    });
  });

  it('reads every variable', () => {
    const config = loadAppConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DB_URL: 'mysql://cta:secret@db:3306/cta',
      DB_MIGRATIONS_RUN: 'false',
      ADMIN_PREFIX: '/admin/v1/',
      ADMIN_PREFIX_ALIASES: 'thunder, legacy',
      SDK_PREFIX: 'sdk',
      BODY_LIMIT_BYTES: '2048',
      SDK_BODY_LIMIT_BYTES: '4096',
      LARGE_BODY_SLOTS: '1',
      LARGE_BODY_MAX_WAITING: '3',
      LARGE_BODY_MAX_WAIT_MS: '2500',
      CORS_ORIGINS: 'https://panel.example.com, https://ops.example.com',
      LOG_LEVEL: 'debug',
      SCHEDULER_INTERVAL_MS: '0',
      CACHE_REVALIDATE_MS: '250',
      CATALOGUE_CACHE_MAX_TENANTS: '50',
      MAX_MACHINES_PER_CTA: '10',
      MAX_USER_STATE_BYTES: '65536',
      CTA_TIME_TOLERANCE_MS: '0',
      CTA_TIME_HORIZON_DAYS: '30',
      ADMIN_API_KEYS: 'a1,a2',
      SDK_API_KEYS: 's1',
      SDK_JWT_JWKS_URL: 'https://auth.example.com/.well-known/jwks.json',
      SDK_JWT_ISSUER: 'https://auth.example.com',
      SDK_JWT_AUDIENCE: 'ios-app, android-app',
      SDK_JWT_USER_CLAIM: 'uid',
      SDK_JWT_CACHE_MAX_TOKENS: '500',
      SHUTDOWN_TIMEOUT_MS: '500',
      RATE_LIMIT_ADMIN_PER_MINUTE: '600',
      RATE_LIMIT_SDK_PER_MINUTE: '60',
      COHORT_UPLOAD_LIMIT_BYTES: '1048576',
      AUDIT_RETENTION_DAYS: '90',
      ADMIN_DEFAULT_USER: ' panel@example.com ',
      APPROVALS_REQUIRED: 'true',
    });
    expect(config).toEqual({
      port: 8080,
      host: '127.0.0.1',
      dbUrl: 'mysql://cta:secret@db:3306/cta',
      dbMigrationsRun: false,
      adminPrefix: 'admin/v1',
      adminPrefixAliases: ['thunder', 'legacy'],
      sdkPrefix: 'sdk',
      bodyLimitBytes: 2048,
      sdkBodyLimitBytes: 4096,
      largeBodyLane: { slots: 1, maxWaiting: 3, maxWaitMs: 2500 },
      corsOrigins: ['https://panel.example.com', 'https://ops.example.com'],
      logLevel: 'debug',
      schedulerIntervalMs: 0,
      cacheRevalidateMs: 250,
      catalogueCacheMaxTenants: 50,
      maxMachinesPerCta: 10,
      maxUserStateBytes: 65536,
      ctaTimeToleranceMs: 0,
      ctaTimeHorizonDays: 30,
      adminApiKeys: [
        { name: 'key-1', role: 'admin', key: 'a1' },
        { name: 'key-2', role: 'admin', key: 'a2' },
      ],
      sdkApiKeys: ['s1'],
      sdkAppUserTokens: {
        jwksUrl: 'https://auth.example.com/.well-known/jwks.json',
        issuer: ['https://auth.example.com'],
        audience: ['ios-app', 'android-app'],
        userClaim: 'uid',
        maxCachedTokens: 500,
      },
      shutdownTimeoutMs: 500,
      adminRateLimitPerMinute: 600,
      sdkRateLimitPerMinute: 60,
      cohortUploadLimitBytes: 1048576,
      auditRetentionDays: 90,
      adminDefaultUser: 'panel@example.com',
      approvalsRequired: true,
    });
  });

  it.each(['sqlite:./data/other.sqlite', 'sqlite::memory:', 'mysql://root@127.0.0.1:3306/test', 'mariadb://u:p@h/db'])(
    'accepts DB_URL %s',
    (url) => {
      expect(loadAppConfig({ DB_URL: url }).dbUrl).toBe(url);
    },
  );

  it.each(['TRUE', '1', 'true'])('reads DB_MIGRATIONS_RUN %s as true', (value) => {
    expect(loadAppConfig({ DB_MIGRATIONS_RUN: value }).dbMigrationsRun).toBe(true);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '65536'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['DB_URL', 'postgres://db/cta'],
    ['DB_URL', 'sqlite:'],
    ['DB_MIGRATIONS_RUN', 'yes'],
    ['ADMIN_PREFIX', 'en gine'],
    ['ADMIN_PREFIX', 'a//b'],
    ['ADMIN_PREFIX_ALIASES', 'thunder,bad prefix'],
    ['SDK_PREFIX', 'c?ta'],
    ['BODY_LIMIT_BYTES', '1023'],
    ['BODY_LIMIT_BYTES', '1MB'],
    ['LOG_LEVEL', 'verbose'],
    ['SCHEDULER_INTERVAL_MS', '-5'],
    ['CACHE_REVALIDATE_MS', 'soon'],
    ['CATALOGUE_CACHE_MAX_TENANTS', '0'],
    ['MAX_MACHINES_PER_CTA', '0'],
    ['MAX_USER_STATE_BYTES', '100'],
    ['CTA_TIME_TOLERANCE_MS', '1e3'],
    ['CTA_TIME_HORIZON_DAYS', '0'],
    ['SHUTDOWN_TIMEOUT_MS', 'x'],
    ['RATE_LIMIT_ADMIN_PER_MINUTE', '-1'],
    ['RATE_LIMIT_SDK_PER_MINUTE', 'many'],
    ['COHORT_UPLOAD_LIMIT_BYTES', '100'],
    ['AUDIT_RETENTION_DAYS', '-1'],
    ['AUDIT_RETENTION_DAYS', '30d'],
    ['ADMIN_API_KEYS', 'alice:owner:k1'],
    ['ADMIN_API_KEYS', ':viewer:k1'],
    ['ADMIN_API_KEYS', 'alice:viewer:'],
    ['ADMIN_API_KEYS', 'alice:k1'],
    ['ADMIN_API_KEYS', 'alice:viewer:k1,alice:editor:k2'],
    ['ADMIN_API_KEYS', 'alice:viewer:k1,bob:editor:k1'],
    ['ADMIN_API_KEYS', 'k0,key-1:viewer:k1'],
    ['ADMIN_API_KEYS', `${'n'.repeat(256)}:viewer:k1`],
    ['ADMIN_DEFAULT_USER', 'u'.repeat(256)],
    ['APPROVALS_REQUIRED', 'yes'],
  ])('refuses %s=%p with a message naming the variable', (variable, value) => {
    const error = failure({ [variable]: value });
    expect(error.message).toMatch(new RegExp(`^Invalid configuration: ${variable} `));
  });

  it('shows the bad value and what is expected', () => {
    expect(failure({ PORT: 'abc' }).message).toBe("Invalid configuration: PORT must be an integer from 0 to 65535, got 'abc'");
    // The large-body lane never has more slots than the machine has cores.
    expect(failure({ LARGE_BODY_SLOTS: String(availableParallelism() + 1) }).message).toBe(
      `Invalid configuration: LARGE_BODY_SLOTS must be an integer from 1 to ${availableParallelism()}, got '${availableParallelism() + 1}'`,
    );
    expect(failure({ LOG_LEVEL: 'verbose' }).message).toContain('must be one of fatal, error, warn, info, debug, trace, silent');
  });

  it('refuses an SDK prefix equal to the admin prefix or one of its aliases, or below one', () => {
    expect(failure({ SDK_PREFIX: 'engine' }).message).toMatch(/^Invalid configuration: SDK_PREFIX must differ/);
    expect(failure({ ADMIN_PREFIX_ALIASES: 'thunder', SDK_PREFIX: 'thunder' }).message).toMatch(/^Invalid configuration: SDK_PREFIX/);
    expect(failure({ ADMIN_PREFIX: 'cta/admin' }).message).toMatch(/^Invalid configuration: SDK_PREFIX must differ/);
  });

  it("takes '/' among the aliases: the admin API at the root as well", () => {
    expect(loadAppConfig({ ADMIN_PREFIX_ALIASES: 'thunder, /' })).toMatchObject({
      adminPrefix: 'engine',
      adminPrefixAliases: ['thunder', '/'],
    });
    expect(loadAppConfig({ ADMIN_PREFIX_ALIASES: '//' }).adminPrefixAliases).toEqual(['/']);
    expect(failure({ ADMIN_PREFIX: '/' }).message).toMatch(/^Invalid configuration: ADMIN_PREFIX must be a URL path segment/);
  });

  it.each<[Record<string, string>, string]>([
    [{ ADMIN_PREFIX: 'docs' }, "ADMIN_PREFIX 'docs' would collide with /docs, which the service serves itself"],
    [{ ADMIN_PREFIX: 'health/admin' }, "ADMIN_PREFIX 'health/admin' would collide with /health, which the service serves itself"],
    [
      { ADMIN_PREFIX_ALIASES: 'thunder,metrics' },
      "ADMIN_PREFIX_ALIASES 'metrics' would collide with /metrics, which the service serves itself",
    ],
    [
      { ADMIN_PREFIX_ALIASES: 'docs-json' },
      "ADMIN_PREFIX_ALIASES 'docs-json' would collide with /docs-json, which the service serves itself",
    ],
    [
      { ADMIN_PREFIX_ALIASES: '/', SDK_PREFIX: 'ctas' },
      "ADMIN_PREFIX_ALIASES '/' would serve the admin routes under /ctas, which collide with the SDK routes under /ctas",
    ],
    [
      { ADMIN_PREFIX_ALIASES: '/', SDK_PREFIX: 'cohorts/sdk' },
      "ADMIN_PREFIX_ALIASES '/' would serve the admin routes under /cohorts, which collide with the SDK routes under /cohorts/sdk",
    ],
    [
      { ADMIN_PREFIX: 'ctas', ADMIN_PREFIX_ALIASES: '/' },
      "ADMIN_PREFIX 'ctas' would collide with the admin routes under /ctas, served at the root ('/' is an alias)",
    ],
    [
      { ADMIN_PREFIX_ALIASES: 'events/legacy,/' },
      "ADMIN_PREFIX_ALIASES 'events/legacy' would collide with the admin routes under /events, served at the root ('/' is an alias)",
    ],
  ])('refuses an admin prefix or alias colliding with what else is served: %p', (env, message) => {
    expect(failure(env).message).toBe(`Invalid configuration: ${message}`);
  });

  it('reads ADMIN_API_KEYS entries as name:role:key, bare keys as admin keys named key-1, key-2, … in order', () => {
    expect(loadAppConfig({ ADMIN_API_KEYS: 'k-a, alice:viewer:k-b, bob:publisher:k:with:colons, k-c' }).adminApiKeys).toEqual([
      { name: 'key-1', role: 'admin', key: 'k-a' },
      { name: 'alice', role: 'viewer', key: 'k-b' },
      { name: 'bob', role: 'publisher', key: 'k:with:colons' },
      { name: 'key-2', role: 'admin', key: 'k-c' },
    ]);
  });

  it('names the entry, never its key, when an ADMIN_API_KEYS entry is malformed', () => {
    expect(failure({ ADMIN_API_KEYS: 'k0,alice:owner:secret-key' }).message).toBe(
      "Invalid configuration: ADMIN_API_KEYS entry 2 ('alice') has the unknown role 'owner'; roles are viewer, editor, publisher, admin",
    );
    expect(failure({ ADMIN_API_KEYS: 'alice:viewer:' }).message).toBe(
      "Invalid configuration: ADMIN_API_KEYS entry 1 has an empty key; use 'name:role:key'",
    );
  });

  it('takes the app-user token secret as given, untrimmed', () => {
    expect(loadAppConfig({ SDK_JWT_SECRET: ' secret with spaces ' }).sdkAppUserTokens).toEqual({ secret: ' secret with spaces ' });
  });

  it.each([
    [
      { SDK_JWT_SECRET: 's', SDK_JWT_JWKS_URL: 'https://auth.example.com/jwks' },
      'SDK_JWT_SECRET and SDK_JWT_JWKS_URL are both set; set one (HS256 secret or RS256/ES256 key set)',
    ],
    [{ SDK_JWT_JWKS_URL: 'ftp://auth.example.com/jwks' }, "SDK_JWT_JWKS_URL must be an http(s) URL, got 'ftp://auth.example.com/jwks'"],
    [{ SDK_JWT_JWKS_URL: 'auth.example.com/jwks' }, "SDK_JWT_JWKS_URL must be an http(s) URL, got 'auth.example.com/jwks'"],
    [{ SDK_JWT_SECRET: '' }, 'SDK_JWT_SECRET is empty'],
    [{ SDK_JWT_SECRET: '   ' }, 'SDK_JWT_SECRET is empty'],
    [
      { SDK_JWT_ISSUER: 'https://auth.example.com' },
      'SDK_JWT_ISSUER needs SDK_JWT_SECRET or SDK_JWT_JWKS_URL to verify app-user tokens with',
    ],
    [{ SDK_JWT_USER_CLAIM: 'uid' }, 'SDK_JWT_USER_CLAIM needs SDK_JWT_SECRET or SDK_JWT_JWKS_URL to verify app-user tokens with'],
    [
      { SDK_JWT_CACHE_MAX_TOKENS: '100' },
      'SDK_JWT_CACHE_MAX_TOKENS needs SDK_JWT_SECRET or SDK_JWT_JWKS_URL to verify app-user tokens with',
    ],
    [
      { SDK_JWT_SECRET: 's', SDK_JWT_CACHE_MAX_TOKENS: '0' },
      "SDK_JWT_CACHE_MAX_TOKENS must be an integer from 1 to 9007199254740991, got '0'",
    ],
  ])('refuses app-user token settings that cannot work: %p', (env, message) => {
    expect(failure(env).message).toBe(`Invalid configuration: ${message}`);
  });
});

import { DOCS_JSON_PATH, DOCS_PATH } from '../api-docs/api-document';
import { DEFAULT_COHORT_UPLOAD_LIMIT_BYTES } from '../cohorts/member-uploads';
import { occupiedPaths, pathsOverlap, ROOT_PREFIX } from '../common/path-prefix';
import { adminRouteRoots } from '../cta-orchestration.module';
import { routeRoots } from '../http/mount-controllers';
import { HealthController } from '../operations/health.controller';
import { MetricsController } from '../operations/metrics.controller';
import { APPROVER_ROLE } from '../approvals/approval-rules';
import { DEFAULT_SDK_BODY_LIMIT_BYTES } from '../http/sdk-request-limits';
import {
  CORES,
  DEFAULT_LARGE_BODY_MAX_WAIT_MS,
  DEFAULT_LARGE_BODY_MAX_WAITING,
  DEFAULT_LARGE_BODY_SLOTS,
  type LargeBodyLaneOptions,
} from '../http/large-body-lane';
import { AdminApiKey, parseAdminApiKeys } from '../security/admin-api-keys';
import { roleAllows } from '../security/admin-roles';
import { appUserTokenOptionsProblem, AppUserTokenOptionNames, AppUserTokenOptions } from '../security/app-user-tokens';

/**
 * The standalone service's configuration, read from the environment once at boot.
 * A bad value stops the service with a message naming the variable.
 *
 * Not `@nestjs/config`: every value is needed before Nest's container exists (the Fastify
 * adapter, the routes' prefixes, the connection, the logger; the port in `main.ts`), test
 * harnesses start apps with their own environments in one process while `ConfigModule` reads
 * `process.env` (and `.env`) only and writes what `validate` returns back into it.
 */

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export interface AppConfig {
  port: number;
  host: string;
  /** `undefined` means the embedded default, `./data/cta.sqlite`. */
  dbUrl: string | undefined;
  dbMigrationsRun: boolean;
  adminPrefix: string;
  adminPrefixAliases: string[];
  sdkPrefix: string;
  bodyLimitBytes: number;
  /** The launch and delta routes' own body limit, at most `bodyLimitBytes` (a device's deltas are a few KB). */
  sdkBodyLimitBytes: number;
  /** The large-body lane: slots (at most the cores), waiting requests and wait (docs/behaviour.md). */
  largeBodyLane: LargeBodyLaneOptions;
  /** `['*']` allows every origin. */
  corsOrigins: string[];
  logLevel: LogLevel;
  schedulerIntervalMs: number;
  cacheRevalidateMs: number;
  /** Tenants whose catalogue one instance keeps in memory (least recently used evicted). */
  catalogueCacheMaxTenants: number;
  /** State machines kept per (user, CTA); the oldest are dropped past it. */
  maxMachinesPerCta: number;
  /** Largest stored state document of one user, in bytes; the oldest machines are dropped past it. */
  maxUserStateBytes: number;
  ctaTimeToleranceMs: number;
  ctaTimeHorizonDays: number;
  /** Keys required on admin routes, with their names and roles; empty = the admin API is open (a warning is logged). */
  adminApiKeys: AdminApiKey[];
  /** Keys required on SDK routes; empty = open. */
  sdkApiKeys: string[];
  /** App-user tokens required on the SDK state-machine routes (SDK_JWT_*); null = `auth-userid` is trusted. */
  sdkAppUserTokens: AppUserTokenOptions | null;
  /** How long a SIGTERM waits for in-flight requests before the process exits anyway. */
  shutdownTimeoutMs: number;
  /** Admin requests a minute per client IP; 0 = no limit. */
  adminRateLimitPerMinute: number;
  /** SDK requests a minute per (tenant, user); 0 = no limit. */
  sdkRateLimitPerMinute: number;
  /** The largest CSV member upload, in bytes (docs/decisions/0008-cohorts.md). */
  cohortUploadLimitBytes: number;
  /** Days an audit entry is kept; 0 = forever. */
  auditRetentionDays: number;
  /** The operator of a write without a `user` header when no admin key names one; null = such writes are refused. */
  adminDefaultUser: string | null;
  /** CTAs go live only with a second key's approval of their current content (docs/decisions/0015-approvals.md). */
  approvalsRequired: boolean;
}

export class InvalidConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'InvalidConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;
const PREFIX_PATTERN = /^[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/;

function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === '' ? undefined : value;
}

function integer(env: Env, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = read(env, name);
  if (raw === undefined) {
    return fallback;
  }
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new InvalidConfigError(name, `must be an integer from ${min} to ${max}, got '${raw}'`);
  }
  return Number(raw);
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name)?.toLowerCase();
  if (raw === undefined) {
    return fallback;
  }
  if (!['true', 'false', '1', '0'].includes(raw)) {
    throw new InvalidConfigError(name, `must be true or false, got '${raw}'`);
  }
  return raw === 'true' || raw === '1';
}

function prefix(name: string, value: string): string {
  const trimmed = value.replace(/^\/+|\/+$/g, '');
  if (!PREFIX_PATTERN.test(trimmed)) {
    throw new InvalidConfigError(name, `must be a URL path segment such as 'engine', got '${value}'`);
  }
  return trimmed;
}

function list(env: Env, name: string): string[] {
  return (read(env, name) ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function adminApiKeys(env: Env): AdminApiKey[] {
  const keys = parseAdminApiKeys(list(env, 'ADMIN_API_KEYS'));
  if ('problem' in keys) {
    throw new InvalidConfigError('ADMIN_API_KEYS', keys.problem);
  }
  return keys;
}

function dbUrl(env: Env): string | undefined {
  const value = read(env, 'DB_URL');
  if (value !== undefined && !/^(sqlite:.+|mysql:\/\/.+|mariadb:\/\/.+)$/.test(value)) {
    throw new InvalidConfigError('DB_URL', `must be 'sqlite:<file>', 'sqlite::memory:' or 'mysql://user:pass@host:port/db'`);
  }
  return value;
}

const SDK_JWT_VARIABLES: AppUserTokenOptionNames = {
  secret: 'SDK_JWT_SECRET',
  jwksUrl: 'SDK_JWT_JWKS_URL',
  issuer: 'SDK_JWT_ISSUER',
  audience: 'SDK_JWT_AUDIENCE',
  userClaim: 'SDK_JWT_USER_CLAIM',
  maxCachedTokens: 'SDK_JWT_CACHE_MAX_TOKENS',
};

/** SDK_JWT_*: null when none is set. The secret is taken as given (not trimmed); set but empty is an error. */
function sdkAppUserTokens(env: Env): AppUserTokenOptions | null {
  const listed = (name: string): string[] | undefined => (list(env, name).length > 0 ? list(env, name) : undefined);
  const maxCachedTokens = read(env, SDK_JWT_VARIABLES.maxCachedTokens);
  const options: AppUserTokenOptions = {
    secret: env[SDK_JWT_VARIABLES.secret],
    jwksUrl: read(env, SDK_JWT_VARIABLES.jwksUrl),
    issuer: listed(SDK_JWT_VARIABLES.issuer),
    audience: listed(SDK_JWT_VARIABLES.audience),
    userClaim: read(env, SDK_JWT_VARIABLES.userClaim),
    maxCachedTokens: maxCachedTokens === undefined ? undefined : integer(env, SDK_JWT_VARIABLES.maxCachedTokens, 0, 1),
  };
  const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  if (Object.keys(given).length === 0) {
    return null;
  }
  const problem = appUserTokenOptionsProblem(given, SDK_JWT_VARIABLES);
  if (problem) {
    throw new InvalidConfigError(problem.name, problem.problem);
  }
  return given;
}

/** ADMIN_DEFAULT_USER: names the operator as a `user` header would (1-255 characters). */
function adminDefaultUser(env: Env): string | null {
  const value = read(env, 'ADMIN_DEFAULT_USER');
  if (value !== undefined && value.length > 255) {
    throw new InvalidConfigError('ADMIN_DEFAULT_USER', `must be at most 255 characters, got ${value.length}`);
  }
  return value ?? null;
}

/**
 * APPROVALS_REQUIRED: an approval must come from a key other than the author's, so the keys must be
 * named, and there must be a second key able to approve (role publisher or admin).
 */
function approvalsRequired(env: Env, keys: AdminApiKey[]): boolean {
  const required = boolean(env, 'APPROVALS_REQUIRED', false);
  if (required && (keys.length < 2 || !keys.some((key) => roleAllows(key.role, APPROVER_ROLE)))) {
    throw new InvalidConfigError(
      'APPROVALS_REQUIRED',
      `needs named admin keys in ADMIN_API_KEYS: at least two, one of role ${APPROVER_ROLE} or admin to approve what another changed ` +
        `(${keys.length === 0 ? 'it names none: the admin API is open' : keys.length === 1 ? 'it names one' : `none of its ${keys.length} can approve`})`,
    );
  }
  return required;
}

/** What the standalone service serves outside the two APIs: the console and its document, health and metrics. */
const SERVICE_PATHS: readonly string[] = [
  ...[DOCS_PATH, DOCS_JSON_PATH].map((path) => path.replace(/^\//, '')),
  ...routeRoots([HealthController, MetricsController]),
];

/**
 * ADMIN_PREFIX, ADMIN_PREFIX_ALIASES (`/` among them serves the admin API at the root as well) and SDK_PREFIX.
 * No admin prefix may collide with the SDK prefix or the service's own paths, nor, when the admin API is also at
 * the root, with its routes there (ADMIN_PREFIX=ctas beside `/` would make /ctas/ctas both a list and a CTA).
 */
function prefixes(env: Env): Pick<AppConfig, 'adminPrefix' | 'adminPrefixAliases' | 'sdkPrefix'> {
  const adminPrefix = prefix('ADMIN_PREFIX', read(env, 'ADMIN_PREFIX') ?? 'engine');
  const sdkPrefix = prefix('SDK_PREFIX', read(env, 'SDK_PREFIX') ?? 'cta');
  const adminPrefixAliases = list(env, 'ADMIN_PREFIX_ALIASES').map((alias) =>
    /^\/+$/.test(alias) ? ROOT_PREFIX : prefix('ADMIN_PREFIX_ALIASES', alias),
  );
  if ([adminPrefix, ...adminPrefixAliases].some((admin) => pathsOverlap(admin, sdkPrefix))) {
    throw new InvalidConfigError('SDK_PREFIX', `must differ from the admin prefix and its aliases, got '${sdkPrefix}'`);
  }
  const rootRoutes = adminPrefixAliases.includes(ROOT_PREFIX) ? adminRouteRoots() : [];
  const servedOtherwise = [
    ...SERVICE_PATHS.map((path) => ({ path, what: `/${path}, which the service serves itself` })),
    { path: sdkPrefix, what: `the SDK routes under /${sdkPrefix}` },
  ];
  const servedAtRoot = rootRoutes.map((path) => ({ path, what: `the admin routes under /${path}, served at the root ('/' is an alias)` }));
  const named = [['ADMIN_PREFIX', adminPrefix], ...adminPrefixAliases.map((alias) => ['ADMIN_PREFIX_ALIASES', alias])];
  for (const [variable, admin] of named) {
    const atRoot = admin === ROOT_PREFIX;
    for (const path of occupiedPaths(admin, rootRoutes)) {
      const collision = [...servedOtherwise, ...(atRoot ? [] : servedAtRoot)].find((other) => pathsOverlap(path, other.path));
      if (collision) {
        const serving = atRoot ? `'/' would serve the admin routes under /${path}, which collide with` : `'${admin}' would collide with`;
        throw new InvalidConfigError(variable, `${serving} ${collision.what}`);
      }
    }
  }
  return { adminPrefix, adminPrefixAliases, sdkPrefix };
}

export function loadAppConfig(env: Env = process.env): AppConfig {
  const logLevel = (read(env, 'LOG_LEVEL') ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new InvalidConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got '${logLevel}'`);
  }
  const { adminPrefix, adminPrefixAliases, sdkPrefix } = prefixes(env);
  const keys = adminApiKeys(env);
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: read(env, 'HOST') ?? '0.0.0.0',
    dbUrl: dbUrl(env),
    dbMigrationsRun: boolean(env, 'DB_MIGRATIONS_RUN', true),
    adminPrefix,
    adminPrefixAliases,
    sdkPrefix,
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024),
    sdkBodyLimitBytes: integer(env, 'SDK_BODY_LIMIT_BYTES', DEFAULT_SDK_BODY_LIMIT_BYTES, 1024),
    largeBodyLane: {
      slots: integer(env, 'LARGE_BODY_SLOTS', DEFAULT_LARGE_BODY_SLOTS, 1, CORES),
      maxWaiting: integer(env, 'LARGE_BODY_MAX_WAITING', DEFAULT_LARGE_BODY_MAX_WAITING, 0),
      maxWaitMs: integer(env, 'LARGE_BODY_MAX_WAIT_MS', DEFAULT_LARGE_BODY_MAX_WAIT_MS, 1),
    },
    corsOrigins: list(env, 'CORS_ORIGINS').length > 0 ? list(env, 'CORS_ORIGINS') : ['*'],
    logLevel,
    schedulerIntervalMs: integer(env, 'SCHEDULER_INTERVAL_MS', 10_000, 0),
    cacheRevalidateMs: integer(env, 'CACHE_REVALIDATE_MS', 1_000, 0),
    catalogueCacheMaxTenants: integer(env, 'CATALOGUE_CACHE_MAX_TENANTS', 10_000, 1),
    maxMachinesPerCta: integer(env, 'MAX_MACHINES_PER_CTA', 100, 1),
    maxUserStateBytes: integer(env, 'MAX_USER_STATE_BYTES', 262_144, 4096),
    ctaTimeToleranceMs: integer(env, 'CTA_TIME_TOLERANCE_MS', 2 * 60 * 1000, 0),
    ctaTimeHorizonDays: integer(env, 'CTA_TIME_HORIZON_DAYS', 5 * 365, 1),
    adminApiKeys: keys,
    sdkApiKeys: list(env, 'SDK_API_KEYS'),
    sdkAppUserTokens: sdkAppUserTokens(env),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0),
    adminRateLimitPerMinute: integer(env, 'RATE_LIMIT_ADMIN_PER_MINUTE', 0, 0),
    sdkRateLimitPerMinute: integer(env, 'RATE_LIMIT_SDK_PER_MINUTE', 0, 0),
    cohortUploadLimitBytes: integer(env, 'COHORT_UPLOAD_LIMIT_BYTES', DEFAULT_COHORT_UPLOAD_LIMIT_BYTES, 1024),
    auditRetentionDays: integer(env, 'AUDIT_RETENTION_DAYS', 0, 0, 100 * 365),
    adminDefaultUser: adminDefaultUser(env),
    approvalsRequired: approvalsRequired(env, keys),
  };
}

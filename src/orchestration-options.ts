import { CanActivate, ConfigurableModuleAsyncOptions, Inject, Type } from '@nestjs/common';
import { AllUsersCohortProvider, CohortProvider } from './cohorts/cohort-provider';
import {
  APP_USER_TOKEN_MODULE_OPTION_NAMES,
  appUserTokenOptionsProblem,
  AppUserTokenOptions,
  AppUserTokenVerifier,
} from './security/app-user-tokens';

/** What a host (or the standalone app) sets when importing `CtaOrchestrationModule`. */
export interface CtaOrchestrationOptions {
  /** Prefix of the admin routes; default `engine`. */
  adminPrefix?: string;
  /** More prefixes serving the same admin routes (e.g. `thunder`), hidden from the API docs. */
  adminPrefixAliases?: string[];
  /** Prefix of the SDK routes; default `cta`. */
  sdkPrefix?: string;
  /** Guards on every admin route (e.g. the host's own auth); default none. */
  adminGuards?: (CanActivate | Type<CanActivate>)[];
  /** Guards on every SDK route; default none. */
  sdkGuards?: (CanActivate | Type<CanActivate>)[];
  /** The host's TypeORM connection to use; default the default connection. */
  connectionName?: string;
  /** Period of the timed-transition and purge job in ms; 0 turns it off. Default 10 000. */
  schedulerIntervalMs?: number;
  /** How often an instance re-reads the per-tenant catalogue revision, in ms. Default 1 000. */
  cacheRevalidateMs?: number;
  /** Tenants whose SDK catalogue one instance keeps in memory, least recently used evicted. Default 10 000. */
  catalogueCacheMaxTenants?: number;
  /** State machines kept per (app user, CTA); a merge drops the oldest past it. Default 100. */
  maxMachinesPerCta?: number;
  /** Largest stored state of one app user (serialised bytes); a merge drops the oldest machines past it. Default 262 144. */
  maxUserStateBytes?: number;
  /** How far in the past a CTA's start/end time may lie on create/update, in ms. Default 2 minutes. */
  ctaTimeToleranceMs?: number;
  /** How far in the future a CTA's start/end time may lie, in days. Default 5 years. */
  ctaTimeHorizonDays?: number;
  /** Which cohorts an app user is in (docs/decisions/0008-cohorts.md); default: every user is in `all`. */
  cohortProvider?: CohortProvider;
  /** Days an audit entry is kept (docs/decisions/0009-audit-in-the-same-transaction.md); 0 keeps them forever. Default 0. */
  auditRetentionDays?: number;
  /**
   * The operator of a write that sends no `user` header when no admin key names one (newer builds of
   * the real admin panel send none); 1-255 characters. Default none: such a write is refused.
   */
  adminDefaultUser?: string;
  /**
   * Verify the app user's token on the SDK state-machine routes with jose (docs/decisions/0010-roles-keys-and-tokens.md): an HS256
   * secret or a JWKS URL, issuer, audience, user claim. Default none: `auth-userid` is trusted
   * (or the host's `sdkGuards` check it).
   */
  appUserTokens?: AppUserTokenOptions;
  /** The host's own verifier of app-user tokens, instead of `appUserTokens`. */
  appUserTokenVerifier?: AppUserTokenVerifier;
  /**
   * Four eyes (docs/decisions/0015-approvals.md): a CTA goes live or is scheduled only with an approval of
   * its current content by a key other than the one that last changed it. Needs `adminGuards` that name each
   * request's key with `setAuditActor` (the actor an approval is told apart by). Default false.
   */
  approvalsRequired?: boolean;
}

/**
 * The options that shape routes and the connection. Nest reads controllers and
 * `TypeOrmModule.forFeature` when the module is defined, before any provider
 * (hence any async factory) runs, so these are given as plain values even to `forRootAsync`
 * (the module builder's "extras").
 */
export const ROUTING_OPTION_NAMES = [
  'adminPrefix',
  'adminPrefixAliases',
  'sdkPrefix',
  'adminGuards',
  'sdkGuards',
  'connectionName',
] as const;

export type CtaOrchestrationRoutingOptions = Pick<CtaOrchestrationOptions, (typeof ROUTING_OPTION_NAMES)[number]>;

/** The options `forRootAsync`'s factory (or `useClass`/`useExisting` options factory) resolves: cohorts, cache, scheduler, time limits. */
export type CtaOrchestrationRuntimeOptions = Omit<CtaOrchestrationOptions, keyof CtaOrchestrationRoutingOptions>;

/** `forRootAsync`: routing options as values, the rest from Nest's async options (`useFactory` with `imports`/`inject`, …). */
export type CtaOrchestrationAsyncOptions = ConfigurableModuleAsyncOptions<CtaOrchestrationRuntimeOptions> & CtaOrchestrationRoutingOptions;

/** The options with every default filled in; what services inject. */
type OptionalSettingNames = 'connectionName' | 'appUserTokens' | 'appUserTokenVerifier' | 'adminDefaultUser';
export type OrchestrationSettings = Required<Omit<CtaOrchestrationOptions, OptionalSettingNames>> &
  Pick<CtaOrchestrationOptions, Exclude<OptionalSettingNames, 'adminDefaultUser'>> & {
    /** null: none configured. */
    adminDefaultUser: string | null;
  };

export type OrchestrationRouting = Required<Omit<CtaOrchestrationRoutingOptions, 'connectionName'>> &
  Pick<CtaOrchestrationRoutingOptions, 'connectionName'>;

export const ORCHESTRATION_SETTINGS = Symbol('ORCHESTRATION_SETTINGS');

/** Injects the resolved `OrchestrationSettings`. */
export const InjectSettings = (): ParameterDecorator => Inject(ORCHESTRATION_SETTINGS);

export function resolveRouting(options: CtaOrchestrationRoutingOptions): OrchestrationRouting {
  return {
    adminPrefix: options.adminPrefix ?? 'engine',
    adminPrefixAliases: options.adminPrefixAliases ?? [],
    sdkPrefix: options.sdkPrefix ?? 'cta',
    adminGuards: options.adminGuards ?? [],
    sdkGuards: options.sdkGuards ?? [],
    connectionName: options.connectionName,
  };
}

/** App-user token options that cannot work stop the start, naming the option. */
function checkAppUserTokens({ appUserTokens, appUserTokenVerifier }: CtaOrchestrationOptions): void {
  if (appUserTokens !== undefined && appUserTokenVerifier !== undefined) {
    throw new Error('CtaOrchestrationModule: appUserTokens and appUserTokenVerifier are both set; set one');
  }
  const problem = appUserTokens && appUserTokenOptionsProblem(appUserTokens, APP_USER_TOKEN_MODULE_OPTION_NAMES);
  if (problem) {
    throw new Error(`CtaOrchestrationModule: ${problem.name} ${problem.problem}`);
  }
}

/**
 * Approvals tell keys apart by the name a guard gives each request: without guards nobody is named
 * (the service's own key guard names keys when ADMIN_API_KEYS is set).
 */
function checkApprovals({ approvalsRequired, adminGuards }: CtaOrchestrationOptions): void {
  if (approvalsRequired !== undefined && typeof approvalsRequired !== 'boolean') {
    throw new Error('CtaOrchestrationModule: approvalsRequired must be true or false');
  }
  if (approvalsRequired && (adminGuards ?? []).length === 0) {
    throw new Error(
      "CtaOrchestrationModule: approvalsRequired needs adminGuards that name each request's key (setAuditActor), " +
        'so an approval can be told apart from the change it approves',
    );
  }
}

/** The default operator must name someone, as a `user` header would. */
function checkAdminDefaultUser({ adminDefaultUser }: CtaOrchestrationOptions): void {
  if (
    adminDefaultUser !== undefined &&
    (typeof adminDefaultUser !== 'string' || !/\S/.test(adminDefaultUser) || adminDefaultUser.trim().length > 255)
  ) {
    throw new Error('CtaOrchestrationModule: adminDefaultUser must be 1-255 characters, not blank');
  }
}

export function resolveSettings(options: CtaOrchestrationOptions): OrchestrationSettings {
  checkAppUserTokens(options);
  checkAdminDefaultUser(options);
  checkApprovals(options);
  return {
    ...resolveRouting(options),
    schedulerIntervalMs: options.schedulerIntervalMs ?? 10_000,
    cacheRevalidateMs: options.cacheRevalidateMs ?? 1_000,
    catalogueCacheMaxTenants: options.catalogueCacheMaxTenants ?? 10_000,
    maxMachinesPerCta: options.maxMachinesPerCta ?? 100,
    maxUserStateBytes: options.maxUserStateBytes ?? 262_144,
    ctaTimeToleranceMs: options.ctaTimeToleranceMs ?? 2 * 60 * 1000,
    ctaTimeHorizonDays: options.ctaTimeHorizonDays ?? 5 * 365,
    cohortProvider: options.cohortProvider ?? new AllUsersCohortProvider(),
    auditRetentionDays: options.auditRetentionDays ?? 0,
    adminDefaultUser: options.adminDefaultUser?.trim() ?? null,
    approvalsRequired: options.approvalsRequired ?? false,
    appUserTokens: options.appUserTokens,
    appUserTokenVerifier: options.appUserTokenVerifier,
  };
}

/**
 * The settings: the runtime options (`forRoot`'s, or what `forRootAsync`'s factory resolved)
 * under the routing given when the module was defined. A routing option returned by a factory
 * would be silently ignored (the routes already exist), so it fails the start instead.
 */
export function resolveModuleSettings(
  runtime: CtaOrchestrationRuntimeOptions,
  routing: CtaOrchestrationRoutingOptions,
): OrchestrationSettings {
  const misplaced = ROUTING_OPTION_NAMES.filter((name) => name in runtime);
  if (misplaced.length > 0) {
    throw new Error(
      `CtaOrchestrationModule.forRootAsync: ${misplaced.join(', ')} must be given beside useFactory, not returned by it ` +
        '(routes and the connection are fixed when the module is defined)',
    );
  }
  return resolveSettings({ ...runtime, ...routing });
}

import { CanActivate, Inject, Type } from '@nestjs/common';
import { AllUsersCohortProvider, CohortProvider } from './cohorts/cohort-provider';

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
  /** How far in the past a CTA's start/end time may lie on create/update, in ms. Default 2 minutes. */
  ctaTimeToleranceMs?: number;
  /** How far in the future a CTA's start/end time may lie, in days. Default 5 years. */
  ctaTimeHorizonDays?: number;
  /** Which cohorts an app user is in (DESIGN §12); default: every user is in `all`. */
  cohortProvider?: CohortProvider;
}

/** The options with every default filled in; what services inject. */
export type OrchestrationSettings = Required<Omit<CtaOrchestrationOptions, 'connectionName'>> &
  Pick<CtaOrchestrationOptions, 'connectionName'>;

export const ORCHESTRATION_SETTINGS = Symbol('ORCHESTRATION_SETTINGS');

/** Injects the resolved `OrchestrationSettings`. */
export const InjectSettings = (): ParameterDecorator => Inject(ORCHESTRATION_SETTINGS);

export function resolveSettings(options: CtaOrchestrationOptions): OrchestrationSettings {
  return {
    adminPrefix: options.adminPrefix ?? 'engine',
    adminPrefixAliases: options.adminPrefixAliases ?? [],
    sdkPrefix: options.sdkPrefix ?? 'cta',
    adminGuards: options.adminGuards ?? [],
    sdkGuards: options.sdkGuards ?? [],
    connectionName: options.connectionName,
    schedulerIntervalMs: options.schedulerIntervalMs ?? 10_000,
    cacheRevalidateMs: options.cacheRevalidateMs ?? 1_000,
    ctaTimeToleranceMs: options.ctaTimeToleranceMs ?? 2 * 60 * 1000,
    ctaTimeHorizonDays: options.ctaTimeHorizonDays ?? 5 * 365,
    cohortProvider: options.cohortProvider ?? new AllUsersCohortProvider(),
  };
}

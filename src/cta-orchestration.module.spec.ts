import { Injectable, Module } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { Test } from '@nestjs/testing';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { COHORT_PROVIDER, CohortProvider } from './cohorts/cohort-provider';
import { CtaOrchestrationModule } from './cta-orchestration.module';
import { ORCHESTRATION_DATA_SOURCE } from './database/orchestration-data-source';
import { ORCHESTRATION_SETTINGS, OrchestrationSettings, resolveSettings } from './orchestration-options';
import { APP_USER_TOKEN_VERIFIER } from './security/app-user-token.guard';
import type { AppUserTokenVerifier } from './security/app-user-tokens';
import { JoseAppUserTokenVerifier } from './security/jose-app-user-token-verifier';

/** Stands in for a host's own configuration and cohort service. */
@Injectable()
class HostCohorts implements CohortProvider {
  cohortsOf(_tenantId: string, userId: string): Promise<string[]> {
    return Promise.resolve(['all', `host-${userId}`]);
  }
}

@Module({ providers: [HostCohorts, { provide: 'HOST_CACHE_MS', useValue: 250 }], exports: [HostCohorts, 'HOST_CACHE_MS'] })
class HostModule {}

const hostConnection = () =>
  TypeOrmModule.forRoot({ name: 'host', type: 'better-sqlite3', database: ':memory:', autoLoadEntities: true, synchronize: false });

const mountedPaths = (module: { controllers?: unknown[] }): string[] =>
  (module.controllers ?? []).map((controller) => Reflect.getMetadata(PATH_METADATA, controller as object) as string);

/** Stands in for a host's own verifier of app-user tokens (e.g. its session service). */
const HOST_VERIFIER: AppUserTokenVerifier = { userIdOf: (token) => Promise.resolve(token === 'session-42' ? '42' : null) };

describe('CtaOrchestrationModule.forRootAsync', () => {
  it('resolves cohorts and settings from the factory with the host’s providers, and mounts routes under the prefixes given beside it', async () => {
    const module = CtaOrchestrationModule.forRootAsync({
      adminPrefix: 'thunder',
      adminPrefixAliases: ['legacy'],
      sdkPrefix: 'sdk',
      connectionName: 'host',
      imports: [HostModule],
      inject: [HostCohorts, 'HOST_CACHE_MS'],
      useFactory: async (cohortProvider: HostCohorts, cacheRevalidateMs: number) => ({
        cohortProvider,
        cacheRevalidateMs,
        schedulerIntervalMs: 0,
      }),
    });
    const paths = mountedPaths(module);
    expect(paths).toContain('thunder/ctas');
    expect(paths).toContain('legacy/ctas');
    expect(paths).toContain('sdk');
    expect(paths).toContain('sdk/nudge/preview');
    expect(paths.every((path) => /^(thunder|legacy|sdk)(\/|$)/.test(path))).toBe(true);

    const moduleRef = await Test.createTestingModule({ imports: [hostConnection(), module] }).compile();
    try {
      const settings = moduleRef.get<OrchestrationSettings>(ORCHESTRATION_SETTINGS);
      expect(settings).toMatchObject({
        adminPrefix: 'thunder',
        sdkPrefix: 'sdk',
        connectionName: 'host',
        cacheRevalidateMs: 250,
        schedulerIntervalMs: 0,
        ctaTimeHorizonDays: 5 * 365,
      });
      expect(moduleRef.get(COHORT_PROVIDER)).toBe(moduleRef.get(HostCohorts));
      await expect(moduleRef.get<CohortProvider>(COHORT_PROVIDER).cohortsOf('t1', '7', {})).resolves.toEqual(['all', 'host-7']);
      // The module works on the host's connection, not one of its own.
      expect(moduleRef.get(ORCHESTRATION_DATA_SOURCE)).toBe(moduleRef.get(getDataSourceToken('host')));
    } finally {
      await moduleRef.close();
    }
  });

  it('takes the settings from an options class (useClass), as Nest’s configurable modules do', async () => {
    @Injectable()
    class HostOrchestrationOptions {
      create() {
        return { cacheRevalidateMs: 250, schedulerIntervalMs: 0 };
      }
    }
    const module = CtaOrchestrationModule.forRootAsync({ connectionName: 'host', useClass: HostOrchestrationOptions });
    const moduleRef = await Test.createTestingModule({ imports: [hostConnection(), module] }).compile();
    try {
      expect(moduleRef.get<OrchestrationSettings>(ORCHESTRATION_SETTINGS)).toMatchObject({
        adminPrefix: 'engine',
        connectionName: 'host',
        cacheRevalidateMs: 250,
        schedulerIntervalMs: 0,
      });
    } finally {
      await moduleRef.close();
    }
  });

  it('refuses a routing option returned by the factory, which could no longer change the routes', async () => {
    const module = CtaOrchestrationModule.forRootAsync({
      connectionName: 'host',
      useFactory: () => ({ adminPrefix: 'late', schedulerIntervalMs: 0 }) as never,
    });
    await expect(Test.createTestingModule({ imports: [hostConnection(), module] }).compile()).rejects.toThrow(
      'CtaOrchestrationModule.forRootAsync: adminPrefix must be given beside useFactory, not returned by it',
    );
  });

  it.each([
    ['no verifier', {}, (verifier: unknown) => expect(verifier).toBeNull()],
    [
      'the built-in one',
      { appUserTokens: { secret: 'a-secret-of-at-least-thirty-two-bytes' } },
      (verifier: unknown) => expect(verifier).toBeInstanceOf(JoseAppUserTokenVerifier),
    ],
    ['the host’s own', { appUserTokenVerifier: HOST_VERIFIER }, (verifier: unknown) => expect(verifier).toBe(HOST_VERIFIER)],
  ])('binds %s as the app-user token verifier', async (_, options, expectVerifier) => {
    const module = CtaOrchestrationModule.forRootAsync({
      connectionName: 'host',
      useFactory: () => ({ ...options, schedulerIntervalMs: 0 }),
    });
    const moduleRef = await Test.createTestingModule({ imports: [hostConnection(), module] }).compile();
    try {
      expectVerifier(moduleRef.get(APP_USER_TOKEN_VERIFIER));
    } finally {
      await moduleRef.close();
    }
  });
});

describe('CtaOrchestrationModule app-user token options', () => {
  it.each([
    [{ appUserTokens: { secret: '' } }, 'CtaOrchestrationModule: appUserTokens.secret is empty'],
    [{ appUserTokens: {} }, 'CtaOrchestrationModule: appUserTokens.secret or appUserTokens.jwksUrl is required'],
    [
      { appUserTokens: { secret: 's', jwksUrl: 'https://auth.example.com/jwks' } },
      'CtaOrchestrationModule: appUserTokens.secret and appUserTokens.jwksUrl are both set; set one (HS256 secret or RS256/ES256 key set)',
    ],
    [
      { appUserTokens: { jwksUrl: 'file:///etc/jwks.json' } },
      "CtaOrchestrationModule: appUserTokens.jwksUrl must be an http(s) URL, got 'file:///etc/jwks.json'",
    ],
    [
      { appUserTokens: { audience: 'app' } },
      'CtaOrchestrationModule: appUserTokens.audience needs appUserTokens.secret or appUserTokens.jwksUrl to verify app-user tokens with',
    ],
    [
      { appUserTokens: { secret: 's' }, appUserTokenVerifier: HOST_VERIFIER },
      'CtaOrchestrationModule: appUserTokens and appUserTokenVerifier are both set; set one',
    ],
  ])('refuses to start with %p', (options, message) => {
    expect(() => CtaOrchestrationModule.forRoot(options)).toThrow(message);
  });
});

describe('CtaOrchestrationModule adminDefaultUser', () => {
  it.each(['', '   ', 'u'.repeat(256)])('refuses to start with %p, which names no operator', (adminDefaultUser) => {
    expect(() => CtaOrchestrationModule.forRoot({ adminDefaultUser })).toThrow(
      'CtaOrchestrationModule: adminDefaultUser must be 1-255 characters, not blank',
    );
  });

  it('takes it trimmed, and none when unset', () => {
    expect(resolveSettings({ adminDefaultUser: ' panel@example.com ' }).adminDefaultUser).toBe('panel@example.com');
    expect(resolveSettings({}).adminDefaultUser).toBeNull();
  });
});

import { Global, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { ORCHESTRATION_SETTINGS, resolveSettings } from '../orchestration-options';
import { COHORT_DIRECTORY, CohortDirectory } from './cohort-directory';
import { AllUsersCohortProvider, COHORT_PROVIDER, CohortProvider } from './cohort-provider';
import { CohortsModule } from './cohorts.module';

/** What OrchestrationCoreModule provides in the real module: the resolved options. */
const settingsModule = (cohortProvider?: CohortProvider) => {
  @Global()
  @Module({
    providers: [{ provide: ORCHESTRATION_SETTINGS, useValue: resolveSettings({ cohortProvider }) }],
    exports: [ORCHESTRATION_SETTINGS],
  })
  class SettingsModule {}
  return SettingsModule;
};

describe('CohortsModule', () => {
  it('binds the default provider (every user in "all") when the host sets none', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [settingsModule(), CohortsModule] }).compile();
    const provider = moduleRef.get<CohortProvider>(COHORT_PROVIDER);
    expect(provider).toBeInstanceOf(AllUsersCohortProvider);
    await expect(provider.cohortsOf('t1', '1')).resolves.toEqual(['all']);
  });

  it("binds the host's provider from the module option cohortProvider", async () => {
    const hostProvider: CohortProvider = { cohortsOf: async (tenantId, userId) => [`${tenantId}:${userId}`] };
    const moduleRef = await Test.createTestingModule({ imports: [settingsModule(hostProvider), CohortsModule] }).compile();
    const provider = moduleRef.get<CohortProvider>(COHORT_PROVIDER);
    expect(provider).toBe(hostProvider);
    await expect(provider.cohortsOf('t1', '42')).resolves.toEqual(['t1:42']);
  });

  it('knows only the cohort "all" while the tenant has no cohorts of its own', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [settingsModule(), CohortsModule] }).compile();
    const directory = moduleRef.get<CohortDirectory>(COHORT_DIRECTORY);
    await expect(directory.unknownCohorts('t1', ['all', 'premium', 'premium', 'churned'])).resolves.toEqual(['premium', 'churned']);
  });

  it("reports no cohort unknown when a host's provider names the cohorts", async () => {
    const hostProvider: CohortProvider = { cohortsOf: async () => ['premium'] };
    const moduleRef = await Test.createTestingModule({ imports: [settingsModule(hostProvider), CohortsModule] }).compile();
    await expect(moduleRef.get<CohortDirectory>(COHORT_DIRECTORY).unknownCohorts('t1', ['premium', 'anything'])).resolves.toEqual([]);
  });
});

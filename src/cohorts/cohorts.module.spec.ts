import { Global, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { ORCHESTRATION_SETTINGS, resolveSettings } from '../orchestration-options';
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
});

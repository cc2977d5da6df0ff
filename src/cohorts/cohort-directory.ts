import { Inject, Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { InjectOrchestrationDataSource } from '../database/orchestration-data-source';
import { InjectSettings, OrchestrationSettings } from '../orchestration-options';
import { COHORT_NAME_PATTERN } from './cohort-name';
import { AllUsersCohortProvider, ALL_USERS_COHORT } from './cohort-provider';
import { CohortEntity } from './cohort.entity';

/**
 * Which cohort names a tenant has, for the warnings of `POST /ctas/validate`
 * (docs/decisions/0003-device-rule-grammar.md, docs/decisions/0008-cohorts.md). Names in `cohortEligibility`
 * are never checked on write; this only tells an operator which names no user can be in.
 */
export interface CohortDirectory {
  /** Those of `names` that are neither `all` nor a cohort of the tenant; none when that cannot be known. */
  unknownCohorts(tenantId: string, names: readonly string[]): Promise<string[]>;
}

export const COHORT_DIRECTORY = Symbol('COHORT_DIRECTORY');

export const InjectCohortDirectory = (): ParameterDecorator => Inject(COHORT_DIRECTORY);

/**
 * The tenant's cohorts as the validate endpoint sees them (docs/decisions/0003-device-rule-grammar.md,
 * docs/decisions/0008-cohorts.md): `all` and the tenant's static and rule cohorts. With a host's `CohortProvider` bound, names may be the
 * host's, unknown to the service: nothing is reported.
 */
@Injectable()
export class TenantCohortDirectory implements CohortDirectory {
  private readonly hostProvidesCohorts: boolean;

  constructor(
    @InjectOrchestrationDataSource() private readonly dataSource: DataSource,
    @InjectSettings() settings: OrchestrationSettings,
  ) {
    this.hostProvidesCohorts = !(settings.cohortProvider instanceof AllUsersCohortProvider);
  }

  async unknownCohorts(tenantId: string, names: readonly string[]): Promise<string[]> {
    if (this.hostProvidesCohorts) return [];
    const candidates = [...new Set(names)].filter((name) => name !== ALL_USERS_COHORT);
    const possible = candidates.filter((name) => COHORT_NAME_PATTERN.test(name));
    const found =
      possible.length === 0
        ? []
        : await this.dataSource.manager.find(CohortEntity, { select: { name: true }, where: { tenantId, name: In(possible) } });
    const known = new Set(found.map((cohort) => cohort.name));
    return candidates.filter((name) => !known.has(name));
  }
}

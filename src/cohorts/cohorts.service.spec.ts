import { CREATE_EXAMPLE } from '../api-docs/flow-examples';
import type { ChangeOrigin } from '../audit/audit.types';
import { ErrorCode } from '../common/error-code';
import { CtasModule } from '../ctas/ctas.module';
import { CtasService } from '../ctas/ctas.service';
import type { CreateCtaDto } from '../ctas/dto/cta-body.dto';
import { refusal, unitTestModule, type UnitTestModule } from '../../test/unit-test-module';
import { CohortsService } from './cohorts.service';
import type { CreateCohortDto } from './dto/cohort-body.dto';

const origin: ChangeOrigin = { actor: 'ops-key', user: 'alice@example.com', requestId: null };
const staticCohort = (name: string): CreateCohortDto => ({ name, kind: 'static' });
const versionRule = { all: [{ attribute: 'appVersion', op: 'semverGte', value: '5.0.0' }, { cohort: 'vip' }] };

describe('CohortsService', () => {
  let app: UnitTestModule;
  let cohorts: CohortsService;
  beforeEach(async () => {
    // With CTAs: a cohort in use by one is a rule of this service.
    app = await unitTestModule([CtasModule]);
    cohorts = app.get(CohortsService);
  });
  afterEach(() => app.close());

  it('creates a static cohort with no members and a rule cohort with its rule, each with a create entry and a catalogue bump', async () => {
    expect(await cohorts.create('t1', 'alice', { ...staticCohort('vip'), description: 'big spenders' }, origin)).toEqual({
      name: 'vip',
      description: 'big spenders',
      kind: 'static',
      rule: null,
      memberCount: 0,
      usedBy: [],
      createdAt: app.clock.at,
      createdBy: 'alice',
      lastUpdatedAt: null,
      lastUpdatedBy: null,
      tenantId: 't1',
    });
    expect(await cohorts.create('t1', 'alice', { name: 'new-vip', kind: 'rule', rule: versionRule }, origin)).toMatchObject({
      kind: 'rule',
      rule: versionRule,
      memberCount: null,
    });
    expect(await cohorts.names('t1')).toEqual(['all', 'new-vip', 'vip']);
    const entries = await app.auditEntries();
    expect(entries.map((entry) => [entry.entityType, entry.entityId, entry.action])).toEqual([
      ['cohort', 'vip', 'create'],
      ['cohort', 'new-vip', 'create'],
    ]);
    expect(await app.catalogueRevision('t1')).toBe(2);
  });

  it('refuses a duplicate name (COHORT_DUPLICATE_NAME), an unknown kind, and a rule naming no static cohort of the tenant', async () => {
    await cohorts.create('t1', 'alice', staticCohort('vip'), origin);
    expect(await refusal(cohorts.create('t1', 'bob', staticCohort('vip'), origin))).toEqual({
      code: ErrorCode.COHORT_DUPLICATE_NAME,
      message: "a cohort named 'vip' already exists",
    });
    expect(await refusal(cohorts.create('t1', 'bob', { name: 'x', kind: 'dynamic' as never }, origin))).toEqual({
      code: ErrorCode.INVALID_REQUEST,
      message: 'kind must be one of static, rule',
    });
    expect(await refusal(cohorts.create('t2', 'bob', { name: 'new-vip', kind: 'rule', rule: versionRule }, origin))).toEqual({
      code: ErrorCode.INVALID_REQUEST,
      message: 'rule.all[1].cohort: "vip" is not a static cohort of the tenant',
    });
    expect(await cohorts.list('t2')).toEqual([]);
  });

  it('updates the description and rule, keeping the rest, and answers COHORT_NOT_FOUND for a cohort the tenant lacks', async () => {
    await cohorts.create('t1', 'alice', staticCohort('vip'), origin);
    await cohorts.create('t1', 'alice', { name: 'new-vip', kind: 'rule', rule: versionRule }, origin);
    app.clock.at += 1000;
    const rule = { any: [{ attribute: 'packageName', op: 'in', values: ['com.example'] }] };
    expect(await cohorts.update('t1', 'bob', 'new-vip', { description: 'renamed', rule }, origin)).toMatchObject({
      description: 'renamed',
      rule,
      createdBy: 'alice',
      lastUpdatedAt: app.clock.at,
      lastUpdatedBy: 'bob',
    });
    expect(await refusal(cohorts.update('t2', 'bob', 'new-vip', { description: 'x' }, origin))).toEqual({
      code: ErrorCode.COHORT_NOT_FOUND,
      message: "cohort 'new-vip' does not exist",
    });
    expect(await refusal(cohorts.get('t1', 'nobody'))).toEqual({
      code: ErrorCode.COHORT_NOT_FOUND,
      message: "cohort 'nobody' does not exist",
    });
  });

  it('refuses to delete a cohort named by a live CTA or by another rule (COHORT_IN_USE), and deletes one no longer named', async () => {
    await cohorts.create('t1', 'alice', staticCohort('vip'), origin);
    await cohorts.create('t1', 'alice', { name: 'new-vip', kind: 'rule', rule: versionRule }, origin);
    const rule = { ...structuredClone(CREATE_EXAMPLE.rule), cohortEligibility: { includes: ['new-vip'], excludes: [] } };
    const id = await app
      .get(CtasService)
      .create('t1', 'alice', { ...CREATE_EXAMPLE, experiment: null, rule } as unknown as CreateCtaDto, origin);
    expect((await cohorts.get('t1', 'new-vip')).usedBy).toEqual([String(id)]);

    await app.setCtaStatus(id, 'live');
    expect(await refusal(cohorts.delete('t1', 'new-vip', origin))).toEqual({
      code: ErrorCode.COHORT_IN_USE,
      message: `cohort 'new-vip' is named by live, scheduled or paused CTAs ${id}; conclude, terminate or edit them first`,
    });
    expect(await refusal(cohorts.delete('t1', 'vip', origin))).toEqual({
      code: ErrorCode.COHORT_IN_USE,
      message: "cohort 'vip' is named by the rules of cohorts 'new-vip'",
    });

    await app.setCtaStatus(id, 'concluded');
    await cohorts.delete('t1', 'new-vip', origin);
    await cohorts.delete('t1', 'vip', origin);
    expect(await cohorts.list('t1')).toEqual([]);
    const deletes = (await app.auditEntries()).filter((entry) => entry.action === 'delete');
    expect(deletes.map((entry) => entry.entityId)).toEqual(['new-vip', 'vip']);
  });
});

import { CREATE_EXAMPLE } from '../api-docs/flow-examples';
import { CohortsService } from '../cohorts/cohorts.service';
import { ErrorCode } from '../common/error-code';
import { refusal, unitTestModule, type UnitTestModule } from '../../test/unit-test-module';
import { CtaEntity } from './cta.entity';
import { CtaValidationService } from './cta-validation.service';
import { CtasModule } from './ctas.module';
import { CtasService } from './ctas.service';

const HOUR = 60 * 60 * 1000;
const body = (fields: Record<string, unknown> = {}): Record<string, unknown> => ({ ...structuredClone(CREATE_EXAMPLE), ...fields });

/** What the example rule is warned of in a tenant without event definitions and cohorts. */
const EXAMPLE_WARNINGS = [
  { path: 'rule.stateTransition.store_opened', message: 'event "store_opened" is not in the tenant\'s event definitions' },
  { path: 'rule.stateTransition.purchase_completed', message: 'event "purchase_completed" is not in the tenant\'s event definitions' },
  { path: 'rule.groupByConfig.groupByKeys[0]', message: '"storeId" is not a property of any event of rule.stateTransition' },
  { path: 'rule.contextParams[0]', message: '"storeId" is not a property of any event of rule.stateTransition' },
  { path: 'rule.cohortEligibility.excludes[0]', message: '"paying_users" is not a cohort of the tenant: no user is in it' },
];

describe('CtaValidationService', () => {
  let app: UnitTestModule;
  let validation: CtaValidationService;
  beforeEach(async () => {
    app = await unitTestModule([CtasModule]);
    validation = app.get(CtaValidationService);
  });
  afterEach(() => app.close());

  it('refuses a body that is no JSON object (INVALID_REQUEST)', async () => {
    for (const sent of [null, [], 'cta']) {
      expect(await refusal(validation.validate('t1', sent))).toEqual({
        code: ErrorCode.INVALID_REQUEST,
        message: 'the body must be a JSON object: a CTA create body (name optional)',
      });
    }
  });

  it('finds the example valid, warning of what the tenant lacks (events, cohorts), and writes nothing', async () => {
    const report = await validation.validate('t1', body());
    expect(report).toEqual({ valid: true, errors: [], warnings: EXAMPLE_WARNINGS });
    expect(await app.dataSource.manager.count(CtaEntity)).toBe(0);
  });

  it('lists every problem create would refuse: the fields, the rule and the times', async () => {
    const report = await validation.validate(
      't1',
      body({
        team: 7,
        rule: { ...CREATE_EXAMPLE.rule, priority: 'high' },
        startTime: app.clock.at + 2 * HOUR,
        endTime: app.clock.at + HOUR,
      }),
    );
    expect(report).toEqual({
      valid: false,
      errors: [
        { path: 'team', message: 'must be a string' },
        { path: 'rule.priority', message: 'must be an integer' },
        {
          path: 'endTime',
          message: 'must be after startTime 2027-01-01T02:00:00.000Z (1798768800000), not 2027-01-01T01:00:00.000Z (1798765200000)',
        },
      ],
      warnings: EXAMPLE_WARNINGS,
    });
  });

  it('names a taken name as create would, but only in the tenant that has it', async () => {
    await app
      .get(CtasService)
      .create('t1', 'alice', { ...body(), experiment: null } as never, { actor: null, user: 'alice', requestId: null });
    expect((await validation.validate('t1', body())).errors).toEqual([
      { path: 'name', message: `a CTA named '${CREATE_EXAMPLE.name}' already exists` },
    ]);
    expect((await validation.validate('t2', body())).errors).toEqual([]);
    expect((await validation.validate('t1', body({ name: undefined }))).valid).toBe(true);
  });

  it('drops the cohort warning once the tenant defines the cohort', async () => {
    await app
      .get(CohortsService)
      .create('t1', 'alice', { name: 'paying_users', kind: 'static' }, { actor: null, user: 'alice', requestId: null });
    expect((await validation.validate('t1', body())).warnings).toEqual(EXAMPLE_WARNINGS.slice(0, -1));
    expect((await validation.validate('t2', body())).warnings).toEqual(EXAMPLE_WARNINGS);
  });
});

import { DataSource } from 'typeorm';
import { Clock } from '../common/clock';
import { unknownCta } from '../common/cta-id';
import { ErrorCode } from '../common/error-code';
import type { CtaExperiment } from '../ctas/cta-experiment';
import type { CtaRecord } from '../ctas/cta-record';
import type { CtasService } from '../ctas/ctas.service';
import { CtaSummaries } from '../ctas/cta-summaries.reader';
import { InsightsService } from '../insights/insights.service';
import { dataSourceOptions } from '../orchestration-schema';
import { sdkPendingInsights } from '../sdk/pending-insights';
import { ExperimentsService } from './experiments.service';

const NOW = 1_800_000_000_000;
const experiment: CtaExperiment = { holdoutPercent: 20, goal: { state: 'done' }, windowDays: 7, holdoutEvent: 'cta_holdout' };

class FixedClock extends Clock {
  override now(): number {
    return NOW;
  }
}

/** The CTA read (the ctas feature's, not the subject here): the records given by id, else CTA_ID_INVALID as it answers. */
function ctaReads(records: Partial<CtaRecord>[]): CtasService {
  return {
    get: async (_tenantId: string, rawId: string) => {
      const record = records.find((cta) => String(cta.id) === rawId);
      if (!record) throw unknownCta(rawId);
      return record as CtaRecord;
    },
  } as unknown as CtasService;
}

describe('ExperimentsService', () => {
  let dataSource: DataSource;
  let insights: InsightsService;

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions('sqlite::memory:')).initialize();
    insights = new InsightsService(dataSource, new FixedClock(), new CtaSummaries(dataSource), sdkPendingInsights);
    for (const [arm, entered, exposed, converted] of [
      ['treatment', 900, 800, 200],
      ['holdout', 210, 200, 20],
    ]) {
      await dataSource.query('INSERT INTO experiment_arms VALUES (?, ?, ?, ?, ?, ?)', ['t1', 5, arm, entered, exposed, converted]);
    }
  });
  afterAll(() => dataSource.destroy());

  const live = { id: 5, ctaStatus: 'live', startTime: NOW - 1000, experiment } as const;
  const reportOf = (record: Partial<CtaRecord>) =>
    new ExperimentsService(ctaReads([record]), insights, new FixedClock()).report('t1', String(record.id));

  it("reports a started CTA's experiment: its settings, the start, and each arm's counts and rate", async () => {
    const report = await reportOf(live);
    expect(report).toMatchObject({
      ctaId: 5,
      holdoutPercent: 20,
      goal: { state: 'done' },
      windowDays: 7,
      startedAt: NOW - 1000,
      arms: {
        treatment: { entered: 900, exposed: 800, converted: 200, rate: 0.25 },
        holdout: { entered: 210, exposed: 200, converted: 20, rate: 0.1 },
      },
      significant: true,
      status: 'ready',
    });
    expect(report.uplift.absolute).toBeCloseTo(0.15, 10);
  });

  it('has no start for a draft, nor for a CTA whose start is still to come', async () => {
    expect((await reportOf({ ...live, ctaStatus: 'draft' })).startedAt).toBeNull();
    expect((await reportOf({ ...live, ctaStatus: 'scheduled', startTime: NOW + 1 })).startedAt).toBeNull();
    expect((await reportOf({ ...live, startTime: NOW })).startedAt).toBe(NOW);
    expect((await reportOf({ ...live, startTime: null })).startedAt).toBeNull();
  });

  it('answers zero counts, no rates and "collecting" for a CTA no user has entered', async () => {
    const report = await reportOf({ ...live, id: 6 });
    expect(report.arms).toEqual({
      treatment: { entered: 0, exposed: 0, converted: 0, rate: null },
      holdout: { entered: 0, exposed: 0, converted: 0, rate: null },
    });
    expect([report.pValue, report.significant, report.status]).toEqual([null, false, 'collecting']);
  });

  it('refuses a CTA without an experiment with INVALID_REQUEST saying how to set one', async () => {
    await expect(reportOf({ ...live, experiment: null })).rejects.toMatchObject({
      code: ErrorCode.INVALID_REQUEST,
      message: 'CTA 5 has no experiment: set "experiment" (holdoutPercent, goal) on a draft CTA to compare it with a holdout',
    });
  });

  it('answers CTA_ID_INVALID as the CTA read does for an unknown id', async () => {
    const service = new ExperimentsService(ctaReads([live]), insights, new FixedClock());
    await expect(service.report('t1', '77')).rejects.toMatchObject({ code: ErrorCode.CTA_ID_INVALID });
  });
});

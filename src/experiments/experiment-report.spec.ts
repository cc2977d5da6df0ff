import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { experimentReport, ExperimentReport } from './experiment-report';
import { EXPERIMENT_REPORT_EXAMPLE } from './experiments-api-examples';

/** The worked example of docs/experiments.md: its answer is what the formulas give for its counts. */
const DOCUMENTED = ((): ExperimentReport => {
  const page = readFileSync(join(__dirname, '..', '..', 'docs', 'experiments.md'), 'utf8');
  const block = /## The report[\s\S]*?```json\n([\s\S]*?)```/.exec(page);
  return (JSON.parse(block![1]) as { data: ExperimentReport }).data;
})();

/** `actual` equals `expected`, numbers to 6 significant digits (erfc is computed to a relative 1.2e-7). */
function expectClose(actual: unknown, expected: unknown, path = 'report'): void {
  if (typeof expected === 'number' && typeof actual === 'number') {
    expect({ path, close: Math.abs(actual - expected) <= 1e-6 * Math.abs(expected) }).toEqual({ path, close: true });
  } else if (typeof expected === 'object' && expected !== null) {
    expect(Object.keys(actual as object)).toEqual(Object.keys(expected));
    for (const [key, value] of Object.entries(expected)) expectClose((actual as Record<string, unknown>)[key], value, `${path}.${key}`);
  } else {
    expect({ path, value: actual }).toEqual({ path, value: expected });
  }
}

describe('experimentReport', () => {
  it("answers docs/experiments.md's worked example from its counts", () => {
    const { treatment, holdout } = DOCUMENTED.arms;
    const report = experimentReport(
      DOCUMENTED.ctaId,
      { holdoutPercent: DOCUMENTED.holdoutPercent, goal: DOCUMENTED.goal, windowDays: DOCUMENTED.windowDays, holdoutEvent: 'cta_holdout' },
      DOCUMENTED.startedAt,
      [
        [treatment.entered, treatment.exposed, treatment.converted],
        [holdout.entered, holdout.exposed, holdout.converted],
      ],
    );
    expectClose(report, DOCUMENTED);
    // The console shows the same example.
    expectClose(EXPERIMENT_REPORT_EXAMPLE, DOCUMENTED);
  });
});

describe('experimentReport status', () => {
  const experiment = { holdoutPercent: 10, goal: { state: '3' }, windowDays: 7, holdoutEvent: 'cta_holdout' };
  const reportOf = (treatment: [number, number], holdout: [number, number]) =>
    experimentReport(1, experiment, null, [
      [treatment[0], ...treatment],
      [holdout[0], ...holdout],
    ]);

  it('is "ready" once each arm has 100 exposed users, significant or not: a nudge that changed nothing is a result too', () => {
    // 20% of 900 against 20% of 100: no difference at all, p = 1.
    expect(reportOf([900, 180], [100, 20])).toMatchObject({ pValue: 1, significant: false, status: 'ready' });
    expect(reportOf([900, 270], [100, 10])).toMatchObject({ significant: true, status: 'ready' });
  });

  it('is "collecting" while an arm has fewer than 100 exposed users, however small the p-value', () => {
    const early = reportOf([900, 450], [99, 5]);
    expect(early.pValue!).toBeLessThan(1e-10);
    expect(early).toMatchObject({ significant: false, status: 'collecting' });
  });
});

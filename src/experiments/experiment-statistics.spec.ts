import { compareArms, erfc, sampleRatioCheck } from './experiment-statistics';

/** Against figures computed by hand (Python's math.erfc, the same formulas written out in docs/experiments.md). */
describe('erfc', () => {
  it.each([
    [0, 1],
    [0.1, 0.8875370839817152],
    [0.5, 0.4795001221869535],
    [1, 0.15729920705028513],
    [2, 0.004677734981047265],
    [3, 2.2090496998585438e-5],
    [5, 1.5374597944280351e-12],
    [8, 1.1224297172982928e-29],
    [12, 1.3562611692059042e-64],
  ])('erfc(%p) within 1.2e-7 of %p, relatively', (x, expected) => {
    expect(Math.abs(erfc(x) - expected) / expected).toBeLessThan(1.2e-7);
    expect(Math.abs(erfc(-x) - (2 - expected))).toBeLessThan(1.2e-7);
  });
});

describe('compareArms', () => {
  it('answers the uplift, its unpooled 95% interval and the pooled two-sided p-value', () => {
    // 20% of 1,800 treated users converted, 13% of 200 held out.
    const result = compareArms({ exposed: 1800, converted: 360 }, { exposed: 200, converted: 26 });
    expect(result.uplift.absolute).toBeCloseTo(0.07, 12);
    expect(result.uplift.relative).toBeCloseTo(0.5384615384615385, 12);
    expect(result.uplift.ci95![0]).toBeCloseTo(0.019862110441439103, 9);
    expect(result.uplift.ci95![1]).toBeCloseTo(0.12013788955856092, 9);
    expect(result.pValue).toBeCloseTo(0.017327598115520905, 8);
    expect(result.significant).toBe(true);
  });

  it('is not significant below 100 exposed users in an arm, or at p ≥ 0.05', () => {
    expect(compareArms({ exposed: 1000, converted: 500 }, { exposed: 99, converted: 10 }).significant).toBe(false);
    expect(compareArms({ exposed: 900, converted: 180 }, { exposed: 100, converted: 20 }).pValue).toBe(1);
    const close = compareArms({ exposed: 1000, converted: 150 }, { exposed: 120, converted: 12 });
    expect(close.pValue).toBeCloseTo(0.1411842323768634, 8);
    expect(close.significant).toBe(false);
  });

  it('answers nulls while an arm has no exposed user, a null relative uplift for a holdout rate of 0, and p = 1 when nobody converted', () => {
    expect(compareArms({ exposed: 10, converted: 1 }, { exposed: 0, converted: 0 })).toEqual({
      uplift: { absolute: null, relative: null, ci95: null },
      pValue: null,
      significant: false,
    });
    const none = compareArms({ exposed: 200, converted: 0 }, { exposed: 150, converted: 0 });
    expect(none).toEqual({ uplift: { absolute: 0, relative: null, ci95: [0, 0] }, pValue: 1, significant: false });
    expect(compareArms({ exposed: 200, converted: 10 }, { exposed: 150, converted: 0 }).uplift.relative).toBeNull();
  });
});

describe('sampleRatioCheck', () => {
  it('finds a split as configured unsuspect, and a broken one suspect', () => {
    const even = sampleRatioCheck(1800, 200, 10);
    // Exactly 1, not erfc(0)'s 1.00000003: a p-value is never above 1.
    expect(even.pValue).toBe(1);
    expect(even.suspect).toBe(false);
    const drifted = sampleRatioCheck(1780, 220, 10);
    // chi-square = 20²/1800 + 20²/200 = 2.2222…
    expect(drifted.pValue).toBeCloseTo(0.13603712811414348, 8);
    expect(drifted.suspect).toBe(false);
    const broken = sampleRatioCheck(1000, 300, 10);
    expect(broken.pValue!).toBeLessThan(1e-50);
    expect(Math.abs(broken.pValue! - 1.1657859845905949e-55) / 1.1657859845905949e-55).toBeLessThan(1e-6);
    expect(broken.suspect).toBe(true);
    expect(sampleRatioCheck(0, 0, 10)).toEqual({ pValue: null, suspect: false });
  });
});

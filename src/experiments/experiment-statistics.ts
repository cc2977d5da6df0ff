/**
 * The statistics of an experiment's report (docs/experiments.md, where each formula is written out with a
 * worked example): a two-sided two-proportion z-test of converted / exposed, and a chi-square check of the
 * exposed counts against the configured split. Both need only the normal distribution's tail, from the
 * complementary error function below.
 */

/** The 0.975 quantile of the standard normal distribution: a 95% interval is ± this many standard errors. */
export const Z_95 = 1.959963984540054;
/** p-values below this are significant. */
export const SIGNIFICANCE_LEVEL = 0.05;
/** Each arm needs this many exposed users before a result is called. */
export const MIN_EXPOSED_PER_ARM = 100;
/** A sample-ratio check whose p-value is below this says the split is broken. */
export const SRM_LEVEL = 0.001;

/**
 * erfc(x), with a relative error below 1.2e-7 everywhere (Numerical Recipes' `erfcc`, a Chebyshev
 * fit): precise in the far tail too, where the sample-ratio check's p-values lie.
 */
export function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const tail =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? tail : 2 - tail;
}

/** A probability from erfc near 0, where the fit's error (erfc(0) = 1.00000003) would put it above 1. */
const probability = (tail: number): number => Math.min(1, tail);

/** P(|Z| ≥ |z|) for a standard normal Z: the two-sided p-value of a z statistic. */
export const twoSidedP = (z: number): number => probability(erfc(Math.abs(z) / Math.SQRT2));

/** P(X ≥ x) for X chi-square distributed with one degree of freedom (X = Z²). */
export const chiSquare1P = (x: number): number => probability(erfc(Math.sqrt(x / 2)));

/** One arm as the test reads it. */
export interface ArmSample {
  exposed: number;
  converted: number;
}

export interface Uplift {
  /** Treatment rate − holdout rate; null when an arm has no exposed user. */
  absolute: number | null;
  /** absolute / holdout rate; null when an arm has no exposed user or the holdout rate is 0. */
  relative: number | null;
  /** The 95% interval of `absolute` (unpooled standard error); null with it. */
  ci95: [number, number] | null;
}

export interface ExperimentTest {
  uplift: Uplift;
  /** Two-sided two-proportion z-test (pooled standard error); null when an arm has no exposed user. */
  pValue: number | null;
  significant: boolean;
}

const rateOf = ({ exposed, converted }: ArmSample): number | null => (exposed === 0 ? null : converted / exposed);

/** Whether each arm has enough exposed users for the test to be read (the report's status "ready"). */
export const enoughExposed = (treatment: ArmSample, holdout: ArmSample): boolean =>
  treatment.exposed >= MIN_EXPOSED_PER_ARM && holdout.exposed >= MIN_EXPOSED_PER_ARM;

/** The uplift of `treatment` over `holdout`, its interval, and the z-test's p-value. */
export function compareArms(treatment: ArmSample, holdout: ArmSample): ExperimentTest {
  const [rateT, rateH] = [rateOf(treatment), rateOf(holdout)];
  if (rateT === null || rateH === null) {
    return { uplift: { absolute: null, relative: null, ci95: null }, pValue: null, significant: false };
  }
  const absolute = rateT - rateH;
  const unpooled = Math.sqrt((rateT * (1 - rateT)) / treatment.exposed + (rateH * (1 - rateH)) / holdout.exposed);
  const pooledRate = (treatment.converted + holdout.converted) / (treatment.exposed + holdout.exposed);
  const pooled = Math.sqrt(pooledRate * (1 - pooledRate) * (1 / treatment.exposed + 1 / holdout.exposed));
  // Every exposed user converted, or none did: both rates are equal, and nothing tells them apart.
  const pValue = pooled === 0 ? 1 : twoSidedP(absolute / pooled);
  return {
    uplift: { absolute, relative: rateH === 0 ? null : absolute / rateH, ci95: [absolute - Z_95 * unpooled, absolute + Z_95 * unpooled] },
    pValue,
    significant: pValue < SIGNIFICANCE_LEVEL && enoughExposed(treatment, holdout),
  };
}

export interface SampleRatioCheck {
  /** Of the chi-square statistic of the exposed counts against the split; null before any exposed user. */
  pValue: number | null;
  suspect: boolean;
}

/** The chi-square check (one degree of freedom) of the arms' exposed counts against a `holdoutPercent` split. */
export function sampleRatioCheck(treatmentExposed: number, holdoutExposed: number, holdoutPercent: number): SampleRatioCheck {
  const total = treatmentExposed + holdoutExposed;
  if (total === 0) return { pValue: null, suspect: false };
  const expectedHoldout = (total * holdoutPercent) / 100;
  const expectedTreatment = total - expectedHoldout;
  const statistic =
    (treatmentExposed - expectedTreatment) ** 2 / expectedTreatment + (holdoutExposed - expectedHoldout) ** 2 / expectedHoldout;
  const pValue = chiSquare1P(statistic);
  return { pValue, suspect: pValue < SRM_LEVEL };
}

import type { CtaExperiment } from '../ctas/cta-experiment';
import type { ArmsCounts } from '../insights/experiment-changes';
import { compareArms, enoughExposed, SampleRatioCheck, sampleRatioCheck, Uplift } from './experiment-statistics';

/** One arm of the report. */
export interface ArmReport {
  /** Users with a first machine of the CTA. */
  entered: number;
  /** Users with a first action of the CTA (the holdout variant's included). */
  exposed: number;
  /** Exposed users whose machine reached the goal state within windowDays of their exposure. */
  converted: number;
  /** converted / exposed; null before any exposed user. */
  rate: number | null;
}

/** The answer of `GET /ctas/{id}/experiment` (docs/experiments.md). */
export interface ExperimentReport extends Pick<CtaExperiment, 'holdoutPercent' | 'goal' | 'windowDays'> {
  ctaId: number;
  /** When the CTA started serving (its startTime once it left draft and the start passed); null before. */
  startedAt: number | null;
  arms: { treatment: ArmReport; holdout: ArmReport };
  uplift: Uplift;
  pValue: number | null;
  significant: boolean;
  srm: SampleRatioCheck;
  /** "ready" once each arm has enough exposed users to read the result, significant or not; else "collecting". */
  status: 'collecting' | 'ready';
}

const armReport = ([entered, exposed, converted]: [number, number, number]): ArmReport => ({
  entered,
  exposed,
  converted,
  rate: exposed === 0 ? null : converted / exposed,
});

/** The report of a CTA's experiment from its counts per arm. */
export function experimentReport(
  ctaId: number,
  experiment: CtaExperiment,
  startedAt: number | null,
  [treatmentCounts, holdoutCounts]: ArmsCounts,
): ExperimentReport {
  const treatment = armReport(treatmentCounts);
  const holdout = armReport(holdoutCounts);
  const { uplift, pValue, significant } = compareArms(treatment, holdout);
  return {
    ctaId,
    holdoutPercent: experiment.holdoutPercent,
    goal: experiment.goal,
    windowDays: experiment.windowDays,
    startedAt,
    arms: { treatment, holdout },
    uplift,
    pValue,
    significant,
    srm: sampleRatioCheck(treatment.exposed, holdout.exposed, experiment.holdoutPercent),
    status: enoughExposed(treatment, holdout) ? 'ready' : 'collecting',
  };
}

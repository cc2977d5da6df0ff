import type { RouteErrors } from '../common/api-error-responses';
import { ErrorCode } from '../common/error-code';
import { EXPERIMENT_EXAMPLE, FLOW_CTA_ID } from '../api-docs/flow-examples';
import type { ExperimentReport } from './experiment-report';

/**
 * The worked example of docs/experiments.md: a 10% holdout a week into a campaign, 1,790 treated users and
 * 210 held-out users exposed, 358 and 27 of them converted. Its figures are checked against the formulas by
 * experiment-report.spec.ts.
 */
export const EXPERIMENT_REPORT_EXAMPLE: ExperimentReport = {
  ctaId: FLOW_CTA_ID,
  holdoutPercent: EXPERIMENT_EXAMPLE.holdoutPercent,
  goal: EXPERIMENT_EXAMPLE.goal,
  windowDays: EXPERIMENT_EXAMPLE.windowDays,
  startedAt: 1795372800000,
  arms: {
    treatment: { entered: 2400, exposed: 1790, converted: 358, rate: 0.2 },
    holdout: { entered: 260, exposed: 210, converted: 27, rate: 0.12857142857142856 },
  },
  uplift: { absolute: 0.07142857142857145, relative: 0.5555555555555558, ci95: [0.02251134238016491, 0.12034580047697799] },
  pValue: 0.013000993068049247,
  significant: true,
  srm: { pValue: 0.456056540250256, suspect: false },
  status: 'ready',
};

/** The error answers of `GET /ctas/{id}/experiment` (ExperimentsController). */
export const EXPERIMENT_ERRORS = {
  report: {
    400: {
      description: 'CTA_ID_INVALID: no such CTA (test CTAs have no experiment); INVALID_REQUEST: the CTA has no experiment',
      examples: [
        [ErrorCode.CTA_ID_INVALID, 'CTA 99 does not exist'],
        [
          ErrorCode.INVALID_REQUEST,
          `CTA ${FLOW_CTA_ID} has no experiment: set "experiment" (holdoutPercent, goal) on a draft CTA to compare it with a holdout`,
        ],
      ],
    },
  },
} satisfies Record<string, RouteErrors>;

import { useState } from 'preact/hooks';
import { MIN_EXPOSED_PER_ARM } from '../../../src/experiments/experiment-statistics';
import { ApiError, get, useRead } from '../api';
import { Time } from '../time';
import type { CtaRecord, ExperimentReport } from '../types';
import { ColumnHeads } from './column-heads';
import { Problem } from './problem';

/** A CTA's experiment (docs/experiments.md): both arms, the uplift with its interval drawn, and what it means in a sentence. */

const ARMS = [
  ['treatment', 'Treatment (nudged)'],
  ['holdout', 'Holdout (silent variant)'],
] as const;

/** A rate as a percentage: "20.0%". */
export const percent = (rate: number | null): string => (rate === null ? '—' : `${(rate * 100).toFixed(1)}%`);
/** A difference of rates in percentage points, signed: "+7.1", "−2.3". */
export const points = (difference: number): string => `${difference < 0 ? '−' : '+'}${Math.abs(difference * 100).toFixed(1)}`;
/** A p-value in two significant digits, "< 0.001" below that. */
export const pText = (p: number): string => (p < 0.001 ? '< 0.001' : `= ${Number(p.toPrecision(2))}`);

/** The plain sentence: collecting (how many exposed users an arm still lacks), or whether the difference is significant. */
export function verdict(report: ExperimentReport): string {
  const { arms, uplift, pValue } = report;
  if (report.status === 'collecting' || uplift.absolute === null || uplift.ci95 === null || pValue === null) {
    const short = ARMS.filter(([arm]) => arms[arm].exposed < MIN_EXPOSED_PER_ARM).map(
      ([arm]) => `${arms[arm].exposed} of ${MIN_EXPOSED_PER_ARM} exposed users in the ${arm}`,
    );
    return `Not significant yet: ${short.join(', ')}.`;
  }
  const change = `${points(uplift.absolute)} points (95% interval ${points(uplift.ci95[0])} to ${points(uplift.ci95[1])})`;
  return report.significant
    ? `Significant: the nudge changed the conversion rate by ${change}, p ${pText(pValue)}.`
    : `Not significant: a difference of ${change} could be chance, p ${pText(pValue)}.`;
}

/** The uplift's 95% interval on an axis through 0, and its point estimate. */
function IntervalChart({ absolute, ci95 }: { absolute: number; ci95: [number, number] }) {
  const width = 360;
  const height = 44;
  const low = Math.min(ci95[0], 0);
  const high = Math.max(ci95[1], 0);
  const span = high - low || 1;
  const x = (value: number): number => 12 + ((value - low) / span) * (width - 24);
  const label = `uplift ${points(absolute)} points, 95% interval ${points(ci95[0])} to ${points(ci95[1])} points`;
  return (
    <svg
      class="interval"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={label}
      data-low={ci95[0]}
      data-high={ci95[1]}
      data-estimate={absolute}
    >
      <title>{label}</title>
      <line x1={x(0)} x2={x(0)} y1={4} y2={height - 14} stroke="#8c959f" stroke-dasharray="3 2" />
      <text x={x(0)} y={height - 2} text-anchor="middle" font-size="10">
        0
      </text>
      <line x1={x(ci95[0])} x2={x(ci95[1])} y1={16} y2={16} stroke="currentColor" stroke-width="3" />
      <line x1={x(ci95[0])} x2={x(ci95[0])} y1={10} y2={22} stroke="currentColor" stroke-width="2" />
      <line x1={x(ci95[1])} x2={x(ci95[1])} y1={10} y2={22} stroke="currentColor" stroke-width="2" />
      <circle cx={x(absolute)} cy={16} r={5} fill="currentColor" />
    </svg>
  );
}

/** The counts of both arms, the sentence, the split check and the uplift drawn. */
function ExperimentResult({ report }: { report: ExperimentReport }) {
  const { arms, uplift, srm, pValue, holdoutPercent } = report;
  const expectedHoldout = ((arms.treatment.exposed + arms.holdout.exposed) * holdoutPercent) / 100;
  return (
    <>
      <p class="verdict">{verdict(report)}</p>
      {srm.suspect && srm.pValue !== null && (
        <p role="alert" class="error srm">
          The split looks broken: {arms.holdout.exposed} exposed users in the holdout where {Number(expectedHoldout.toFixed(1))} were
          expected (sample-ratio check p {pText(srm.pValue)}). Do not trust the result.
        </p>
      )}
      <table class="list arms">
        <ColumnHeads names={['Arm', 'Entered', 'Exposed', 'Converted', 'Conversion rate']} />
        <tbody>
          {ARMS.map(([arm, label]) => (
            <tr data-arm={arm}>
              <th scope="row">{label}</th>
              <td>{arms[arm].entered}</td>
              <td>{arms[arm].exposed}</td>
              <td>{arms[arm].converted}</td>
              <td>{percent(arms[arm].rate)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {uplift.absolute !== null && uplift.ci95 !== null && (
        <div class="uplift">
          <IntervalChart absolute={uplift.absolute} ci95={uplift.ci95} />
          <p>
            Uplift {points(uplift.absolute)} points
            {uplift.relative !== null && ` (${points(uplift.relative)}% relative to the holdout's rate)`}, 95% interval{' '}
            {points(uplift.ci95[0])} to {points(uplift.ci95[1])} points
            {pValue !== null && `; p ${pText(pValue)}`}
            {srm.pValue !== null && `; sample-ratio check p ${pText(srm.pValue)}`}
          </p>
        </div>
      )}
    </>
  );
}

export function Experiment({ cta }: { cta: CtaRecord }) {
  const [report, setReport] = useState<ExperimentReport | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  useRead(
    () => (cta.experiment === null ? Promise.resolve(null) : get<ExperimentReport>(`ctas/${cta.id}/experiment`)),
    [cta.id, cta.experiment === null],
    (answer) => (setReport(answer), setError(null)),
    setError,
  );
  if (cta.experiment === null) return null;
  const { holdoutPercent, goal, windowDays, holdoutEvent } = cta.experiment;
  return (
    <section aria-labelledby="experiment-title" class="experiment">
      <h2 id="experiment-title">Experiment</h2>
      <p class="muted">
        {holdoutPercent}% held out (served the same journey, every action replaced by the app event {JSON.stringify(holdoutEvent)}) · goal:
        state {JSON.stringify(goal.state)} within {windowDays} day{windowDays === 1 ? '' : 's'} of exposure · started{' '}
        <Time ms={report?.startedAt} />
      </p>
      <Problem error={error} />
      {report !== null && <ExperimentResult report={report} />}
    </section>
  );
}

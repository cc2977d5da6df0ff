import { useState } from 'preact/hooks';
import { MIN_EXPOSED_PER_ARM } from '../../../src/experiments/experiment-statistics';
import { ApiError, get, useRead } from '../api';
import { Time } from '../time';
import type { ArmReport, CtaRecord, ExperimentReport } from '../types';
import { ColumnHeads } from './column-heads';
import { Problem } from './problem';

const ARMS = [
  ['treatment', 'With the nudge (treatment)'],
  ['holdout', 'Held out (holdout)'],
] as const;

const percent = (rate: number | null): string => (rate === null ? '—' : `${(rate * 100).toFixed(1)}%`);
/** A difference of rates in percentage points, signed. */
const points = (difference: number): string => `${difference >= 0 ? '+' : '−'}${Math.abs(difference * 100).toFixed(1)} points`;

/** The report in one sentence (docs/operator-view.md): a broken split first, then whether the difference is significant. */
export function verdict({ arms, srm, significant, pValue, holdoutPercent }: ExperimentReport): string {
  const { treatment, holdout } = arms;
  if (srm.suspect) {
    return (
      `do not trust the result: ${treatment.exposed} exposed users with the nudge and ${holdout.exposed} held out ` +
      `do not fit a ${holdoutPercent}% holdout (sample-ratio p = ${srm.pValue?.toExponential(1)})`
    );
  }
  if (significant) {
    return `significant: ${percent(treatment.rate)} reached the goal with the nudge, ${percent(holdout.rate)} without (p = ${pValue?.toFixed(3)})`;
  }
  const [fewer, arm] = treatment.exposed < holdout.exposed ? [treatment, 'treatment'] : [holdout, 'holdout'];
  if (fewer.exposed < MIN_EXPOSED_PER_ARM) {
    return `not significant yet: ${fewer.exposed} of ${MIN_EXPOSED_PER_ARM} exposed users in the ${arm}`;
  }
  return `not significant: p = ${pValue?.toFixed(3)}, the difference may be chance`;
}

/** The uplift's 95% interval drawn around 0 (no difference), the uplift a dot on it. */
function UpliftBar({ absolute, ci95: [low, high] }: { absolute: number; ci95: [number, number] }) {
  const width = 360;
  const reach = Math.max(Math.abs(low), Math.abs(high), 0.01) * 1.15;
  const x = (value: number): number => width / 2 + (value / reach) * (width / 2 - 4);
  const text = `uplift ${points(absolute)}, 95% interval ${points(low)} to ${points(high)}`;
  return (
    <svg class="uplift" width={width} height={34} viewBox={`0 0 ${width} 34`} role="img" aria-label={text}>
      <title>{text}</title>
      <line x1={x(0)} x2={x(0)} y1={2} y2={32} class="zero" />
      <line x1={x(low)} x2={x(high)} y1={17} y2={17} class="interval" />
      <line x1={x(low)} x2={x(low)} y1={10} y2={24} class="interval" />
      <line x1={x(high)} x2={x(high)} y1={10} y2={24} class="interval" />
      <circle cx={x(absolute)} cy={17} r={5} />
    </svg>
  );
}

/** A CTA's experiment (`GET /ctas/{id}/experiment`): both arms, the uplift with its interval, and what it means. */
export function Experiment({ cta }: { cta: CtaRecord }) {
  const [report, setReport] = useState<ExperimentReport | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  useRead(
    () => get<ExperimentReport>(`ctas/${cta.id}/experiment`),
    [cta.id],
    (answer) => (setReport(answer), setError(null)),
    setError,
  );
  return (
    <section aria-labelledby="experiment-title">
      <h2 id="experiment-title">Experiment</h2>
      <Problem error={error} />
      {report !== null && (
        <>
          <p class="muted">
            {report.holdoutPercent}% of users held out · goal: state {report.goal.state} within {report.windowDays} day
            {report.windowDays === 1 ? '' : 's'} of exposure · started <Time ms={report.startedAt} />
          </p>
          <p class={`verdict verdict-${report.status}`}>{verdict(report)}</p>
          <table class="list arms">
            <ColumnHeads names={['Arm', 'Entered', 'Exposed', 'Converted', 'Goal rate']} />
            <tbody>
              {ARMS.map(([arm, label]) => {
                const counts: ArmReport = report.arms[arm];
                return (
                  <tr data-arm={arm}>
                    <th scope="row">{label}</th>
                    <td>{counts.entered}</td>
                    <td>{counts.exposed}</td>
                    <td>{counts.converted}</td>
                    <td>{percent(counts.rate)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {report.uplift.absolute !== null && report.uplift.ci95 !== null ? (
            <p class="uplift-text">
              Uplift {points(report.uplift.absolute)}
              {report.uplift.relative !== null &&
                ` (${report.uplift.relative >= 0 ? '+' : '−'}${Math.abs(report.uplift.relative * 100).toFixed(1)}% of the holdout's rate)`}
              , 95% interval {points(report.uplift.ci95[0])} to {points(report.uplift.ci95[1])}
              <br />
              <UpliftBar absolute={report.uplift.absolute} ci95={report.uplift.ci95} />
            </p>
          ) : (
            <p class="muted">No uplift yet: an arm has no exposed user.</p>
          )}
        </>
      )}
    </section>
  );
}

import { describeInstant } from '../common/clock';
import type { Problem } from '../common/problems';
import { stateGraphChange } from '../rule/cta-state-graph';
import { editRefusal, type EditedCta, LIVE_EDIT_STATUSES, sentStartTime } from './cta-status-policy';

/** An end must come after the start (docs/decisions/0002-status-lifecycle-and-live-edits.md); null when it does. */
export const endAfterStartProblem = (startTime: number, endTime: number): Problem | null =>
  endTime > startTime
    ? null
    : { path: 'endTime', message: `must be after startTime ${describeInstant(startTime)}, not ${describeInstant(endTime)}` };

/** The edited CTA as locked for the edit: what the plan compares the body with. */
export interface PlannedCta extends EditedCta {
  rule: unknown;
}

/** What an update or restore sends that the CTA's status judges; the rest of the body is checked before. */
export interface SentEdit {
  /** The rule as it would be stored. */
  rule: unknown;
  /** Undefined: left out (kept); null: cleared (a draft's start only, `sentStartTime`). */
  startTime?: number | null;
  endTime?: number | null;
  /** Whether the experiment would differ from the stored one. */
  experimentChanged: boolean;
}

/**
 * What an update or restore writes of the CTA's times, or why it writes nothing: the status refuses the
 * edit (`refusal`, CTA_STATUS_UPDATE_INVALID), or the times it would end up with are out of order
 * (`problem`, INVALID_REQUEST). Omitted times keep their value; an explicit null clears one.
 */
export type CtaEditPlan =
  | { refusal: string; problem?: undefined }
  | { refusal?: undefined; problem: Problem }
  | { refusal?: undefined; problem?: undefined; startTime: number | null; endTime: number | null };

/** A live or scheduled CTA's edit must keep the state graph devices hold and times that follow its status (`editRefusal`). */
export const isLiveEdit = (cta: Pick<EditedCta, 'status'>): boolean => LIVE_EDIT_STATUSES.includes(cta.status);

export function planCtaEdit(cta: PlannedCta, edit: SentEdit, now: number, options: { approvalsRequired?: boolean } = {}): CtaEditPlan {
  const sentStart = sentStartTime(cta.status, edit.startTime);
  const refusal = editRefusal(
    cta,
    {
      stateGraph: isLiveEdit(cta) ? stateGraphChange(cta.rule, edit.rule) : null,
      startTime: sentStart,
      endTime: edit.endTime,
      experimentChanged: edit.experimentChanged,
    },
    now,
    options,
  );
  if (refusal !== null) {
    return { refusal };
  }
  const startTime = sentStart === undefined ? cta.startTime : sentStart;
  const endTime = edit.endTime === undefined ? cta.endTime : edit.endTime;
  const problem = startTime !== null && endTime !== null ? endAfterStartProblem(startTime, endTime) : null;
  return problem ? { problem } : { startTime, endTime };
}

import { describeInstant } from '../common/clock';
import { joinProblems } from '../common/problems';
import type { StateGraphChange } from '../rule/cta-state-graph';
import { CTA_STATUSES, CtaStatus } from './cta-statuses';

/**
 * What a CTA's status allows, besides the moves of the status table (`cta-transitions.ts`):
 * every rule that names a set of statuses, and whether devices get a CTA now.
 */

/** Devices run the rules of live and scheduled CTAs (docs/decisions/0002-status-lifecycle-and-live-edits.md): a scheduled one turns live on the device when its start passes. */
export const RUNNING_STATUSES: readonly CtaStatus[] = ['live', 'scheduled'];

/** CTAs devices run, or will again when they resume (paused): the SDK catalogue holds them (docs/decisions/0006-user-state-merge.md), and their cohorts stay (docs/decisions/0008-cohorts.md). */
export const IN_PLAY_STATUSES: readonly CtaStatus[] = ['live', 'scheduled', 'paused'];

/** A CTA's body may be edited freely while no device runs it and it is not over. */
export const EDITABLE_STATUSES: readonly CtaStatus[] = ['draft', 'paused'];

/**
 * Devices run these CTAs' rules, so an edit must be one they can absorb: it keeps the state graph
 * (every machine devices and the service hold keeps its meaning), and the times follow the status.
 * Anything else needs a pause first. (concluded and terminated are final: no edit at all.)
 */
export const LIVE_EDIT_STATUSES: readonly CtaStatus[] = RUNNING_STATUSES;

/** An approval is of content that may still reach devices: not of a concluded or terminated CTA (docs/decisions/0015-approvals.md). */
export const APPROVABLE_STATUSES: readonly CtaStatus[] = ['draft', 'paused', 'live', 'scheduled'];

/** Devices enforce a tag for its running CTAs, so a new tag links only draft or paused CTAs (docs/decisions/0004-behaviour-tags.md). */
export const TAG_LINKABLE_STATUSES: readonly CtaStatus[] = ['draft', 'paused'];

/** A tag changes only while none of the CTAs it links, before or after the change, is running (docs/decisions/0004-behaviour-tags.md). */
export const TAG_CHANGEABLE_STATUSES: readonly CtaStatus[] = CTA_STATUSES.filter((status) => !RUNNING_STATUSES.includes(status));

/** What decides whether a CTA is served at a given time (the launch's decision: `serving/serving-decision.ts`). */
export interface CtaTiming {
  status: CtaStatus;
  startTime: number | null;
  endTime: number | null;
  isTest: boolean;
  expiresAt: number | null;
}

/** A scheduled CTA counts as live once its start has passed (docs/decisions/0002-status-lifecycle-and-live-edits.md), whether or not the periodic job has moved it yet. */
export const startedBy = (cta: Pick<CtaTiming, 'status' | 'startTime'>, now: number): boolean =>
  cta.status !== 'scheduled' || (cta.startTime !== null && cta.startTime <= now);

/** A test CTA runs until it expires (docs/decisions/0005-test-ctas.md). */
export const unexpiredAt = (cta: Pick<CtaTiming, 'isTest' | 'expiresAt'>, now: number): boolean =>
  !cta.isTest || (cta.expiresAt !== null && cta.expiresAt > now);

/**
 * Whether a CTA's users keep their state at `now` (docs/decisions/0006-user-state-merge.md step 4): while it runs (started, a test CTA
 * not expired, its end not yet concluded by the job) or is paused, so it resumes where they left it.
 */
export const keepsUserStateAt = (cta: Omit<CtaTiming, 'endTime'>, now: number): boolean =>
  IN_PLAY_STATUSES.includes(cta.status) && startedBy(cta, now) && unexpiredAt(cta, now);

/** The CTA an update or restore edits, as locked for it. */
export interface EditedCta {
  id: number;
  status: CtaStatus;
  startTime: number | null;
  endTime: number | null;
}

/**
 * The start an update or restore sends, as the CTA's status reads it: `null` keeps the stored start of a CTA
 * that has left draft (the newest builds of the real admin panel send null whenever the operator did not touch
 * the schedule: docs/decisions/0002-status-lifecycle-and-live-edits.md), so it reads as omitted; only a draft's
 * start can be cleared.
 */
export const sentStartTime = (status: CtaStatus, sent: number | null | undefined): number | null | undefined =>
  sent === null && status !== 'draft' ? undefined : sent;

/** What the edit does, as far as the CTA's status cares. */
export interface CtaEdit {
  /** How the rule's state graph changes; null when it is kept. */
  stateGraph: StateGraphChange | null;
  /** The start the body sends (`sentStartTime`: never null once the CTA left draft); undefined when it keeps the stored one. */
  startTime: number | null | undefined;
  /** The end the body sends; undefined when it leaves it out (it keeps its value), null to clear it. */
  endTime: number | null | undefined;
  /** Whether the experiment (docs/experiments.md) would differ from the stored one. */
  experimentChanged?: boolean;
}

/** An experiment is fixed once the CTA has left draft: its counts so far belong to the experiment they were made under. */
const experimentRefusal = (id: number, status: CtaStatus): string =>
  `experiment: CTA ${id} is ${status} and has been served, so its experiment is fixed: changing it would mix two experiments in one ` +
  'set of counts; create another CTA for the new experiment';

/**
 * Why the CTA's status refuses the edit, naming what differs and the way out (the message of
 * CTA_STATUS_UPDATE_INVALID); null when the status takes it. A time sent unchanged is kept, whatever it is.
 * With approvals required there are no live edits: what devices get must be the content a second key
 * approved (docs/decisions/0015-approvals.md).
 */
export function editRefusal(cta: EditedCta, edit: CtaEdit, now: number, { approvalsRequired = false } = {}): string | null {
  if (edit.experimentChanged && cta.status !== 'draft' && cta.status !== 'concluded' && cta.status !== 'terminated') {
    return experimentRefusal(cta.id, cta.status);
  }
  if (EDITABLE_STATUSES.includes(cta.status)) {
    return null;
  }
  const { id, status } = cta;
  if (!LIVE_EDIT_STATUSES.includes(status)) {
    return `CTA ${id} is ${status}; concluded and terminated CTAs cannot be edited`;
  }
  if (approvalsRequired) {
    return (
      `CTA ${id} is ${status} and approvals are required, so it takes no edits: pause it, edit it, ` +
      `have another key approve it, then ${status === 'live' ? 'take it live' : 'schedule it'} again`
    );
  }
  const problems: string[] = [];
  if (edit.stateGraph !== null) {
    problems.push(`${joinProblems(edit.stateGraph.problems)}; pause CTA ${id} to change ${edit.stateGraph.changes}`);
  }
  const changed = (sent: number | null | undefined, stored: number | null): sent is number | null => sent !== undefined && sent !== stored;
  const nowText = `now ${describeInstant(now)}`;
  // A null keeps a live or scheduled CTA's start (`sentStartTime`): only a number moves it.
  const start = edit.startTime;
  if (typeof start === 'number' && start !== cta.startTime) {
    if (status === 'live') {
      if (start > now) {
        problems.push(
          `startTime: ${describeInstant(start)} is in the future (${nowText}): to start CTA ${id} later, pause it, then schedule it`,
        );
      }
    } else if (start < now) {
      problems.push(
        `startTime: ${describeInstant(start)} is in the past (${nowText}): CTA ${id} is scheduled, so its start may move, not into the past ` +
          '(to start it now, pause it, then take it live)',
      );
    }
  }
  if (changed(edit.endTime, cta.endTime) && edit.endTime !== null && edit.endTime < now) {
    problems.push(
      `endTime: ${describeInstant(edit.endTime)} is in the past (${nowText}): to end CTA ${id} now, ${status === 'live' ? 'conclude' : 'terminate'} it`,
    );
  }
  return problems.length > 0 ? problems.join('; ') : null;
}

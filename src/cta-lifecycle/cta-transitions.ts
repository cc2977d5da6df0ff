import type { CtaStatus } from './cta-statuses';

/** The five status actions of `PUT /ctas/{id}/<action>`. */
export const STATUS_ACTIONS = ['live', 'pause', 'schedule', 'conclude', 'terminate'] as const;
export type StatusAction = (typeof STATUS_ACTIONS)[number];

export interface Transition {
  to: CtaStatus;
  from: readonly CtaStatus[];
  /** The time field the action sets to now (going live starts the CTA, ending it ends it). */
  stamps: 'startTime' | 'endTime' | null;
  /** `/schedule` needs a `startTime` that is not in the past (no tolerance, docs/decisions/0002-status-lifecycle-and-live-edits.md). */
  needsFutureStart: boolean;
  /** With approvals required, the move needs an approval of the CTA's current content (docs/decisions/0015-approvals.md). */
  needsApproval: boolean;
}

/** The transition table of docs/decisions/0002-status-lifecycle-and-live-edits.md; `concluded` and `terminated` are final. */
export const TRANSITIONS: Readonly<Record<StatusAction, Transition>> = {
  live: { to: 'live', from: ['draft', 'paused'], stamps: 'startTime', needsFutureStart: false, needsApproval: true },
  pause: { to: 'paused', from: ['live', 'scheduled'], stamps: null, needsFutureStart: false, needsApproval: false },
  schedule: { to: 'scheduled', from: ['draft', 'paused'], stamps: null, needsFutureStart: true, needsApproval: true },
  conclude: { to: 'concluded', from: ['live', 'paused'], stamps: 'endTime', needsFutureStart: false, needsApproval: false },
  terminate: {
    to: 'terminated',
    from: ['draft', 'live', 'paused', 'scheduled'],
    stamps: 'endTime',
    needsFutureStart: false,
    needsApproval: false,
  },
};

export const isStatusAction = (action: string): action is StatusAction => Object.hasOwn(TRANSITIONS, action);

/**
 * What the periodic job does on its own (docs/decisions/0002-status-lifecycle-and-live-edits.md): the status moves when
 * the time field is due (≤ now). A scheduled CTA's go-live asks for no approval: it had one when it was scheduled.
 */
export interface TimedTransition {
  /** The status action it amounts to, as the audit history names it. */
  action: StatusAction;
  from: readonly CtaStatus[];
  to: CtaStatus;
  dueAt: 'startTime' | 'endTime';
}

/** In this order: a CTA whose start and end have both passed goes live, then concludes, in one run. */
export const TIMED_TRANSITIONS: readonly TimedTransition[] = [
  { action: 'live', from: ['scheduled'], to: 'live', dueAt: 'startTime' },
  { action: 'conclude', from: ['live', 'paused'], to: 'concluded', dueAt: 'endTime' },
];

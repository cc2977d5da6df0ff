import { CTA_STATUSES, CtaStatus } from '../ctas/cta.types';

/**
 * What a CTA's status allows, besides the moves of the status table (`cta-transitions.ts`):
 * every rule that names a set of statuses, and whether devices get a CTA now.
 */

/** Devices run the rules of live and scheduled CTAs (DESIGN §5): a scheduled one turns live on the device when its start passes. */
export const RUNNING_STATUSES: readonly CtaStatus[] = ['live', 'scheduled'];

/** CTAs devices run, or will again when they resume (paused): the SDK catalogue holds them (DESIGN §11), and their cohorts stay (§12). */
export const IN_PLAY_STATUSES: readonly CtaStatus[] = ['live', 'scheduled', 'paused'];

/** A CTA's body may be edited while no device runs it and it is not over: an operator pauses, edits and goes live again (DESIGN §5). */
export const EDITABLE_STATUSES: readonly CtaStatus[] = ['draft', 'paused'];

/** Devices enforce a tag for its running CTAs, so a new tag links only draft or paused CTAs (DESIGN §7). */
export const TAG_LINKABLE_STATUSES: readonly CtaStatus[] = ['draft', 'paused'];

/** A tag changes only while none of the CTAs it links, before or after the change, is running (DESIGN §7). */
export const TAG_CHANGEABLE_STATUSES: readonly CtaStatus[] = CTA_STATUSES.filter((status) => !RUNNING_STATUSES.includes(status));

/** What decides whether a CTA is served at a given time (the launch's decision: `serving/serving-decision.ts`). */
export interface CtaTiming {
  status: CtaStatus;
  startTime: number | null;
  endTime: number | null;
  isTest: boolean;
  expiresAt: number | null;
}

/** A scheduled CTA counts as live once its start has passed (DESIGN §6), whether or not the periodic job has moved it yet. */
export const startedBy = (cta: Pick<CtaTiming, 'status' | 'startTime'>, now: number): boolean =>
  cta.status !== 'scheduled' || (cta.startTime !== null && cta.startTime <= now);

/** A test CTA runs until it expires (DESIGN §8). */
export const unexpiredAt = (cta: Pick<CtaTiming, 'isTest' | 'expiresAt'>, now: number): boolean =>
  !cta.isTest || (cta.expiresAt !== null && cta.expiresAt > now);

/**
 * Whether a CTA's users keep their state at `now` (DESIGN §11 step 4): while it runs (started, a test CTA
 * not expired, its end not yet concluded by the job) or is paused, so it resumes where they left it.
 */
export const keepsUserStateAt = (cta: Omit<CtaTiming, 'endTime'>, now: number): boolean =>
  IN_PLAY_STATUSES.includes(cta.status) && startedBy(cta, now) && unexpiredAt(cta, now);

import { describeInstant } from '../common/clock';
import type { CtaStatus } from '../cta-lifecycle/cta-statuses';
import type { ExposureCapReached } from '../exposure-policy/exposure-cap';
import type { CatalogueCta } from '../sdk/sdk-catalogue';
import { blockNames, ServingBlock } from '../serving/serving-decision';
import type { DeviceView } from './device-view';
import type { Shadow } from './shadowing';

/** The answer of `GET /app-users/{userId}/launch`, in this key order: the reasons before the payload, read top down. */
export interface LaunchExplanation {
  userId: string;
  /** Every cohort the user is in at this launch (static, rule, `all`, the host's), sorted. */
  cohorts: string[];
  ctas: CtaExplanation[];
  /** Exactly the `data` a launch without a body would answer now. */
  launch: unknown;
}

/** SERVED, HOLDOUT and SHADOWED for a served CTA; the serving blocks for one that is not. */
export type ReasonCode = 'SERVED' | 'HOLDOUT' | 'SHADOWED' | ServingBlock;
export const SERVED_REASON_CODES = ['SERVED', 'HOLDOUT', 'SHADOWED'] as const;

export interface Reason {
  code: ReasonCode;
  message: string;
  /** EXPOSURE_CAP_REACHED only: the count, the limit, and when a slot frees (ISO 8601). */
  count?: number;
  limit?: number;
  freesAt?: string;
}

export interface CtaExplanation {
  ctaId: string;
  name: string | null;
  ctaStatus: CtaStatus;
  served: boolean;
  reasons: Reason[];
  behaviourTagName: string | null;
  /** For a served CTA: what the device will make of the user's state; else null. */
  device: DeviceView | null;
}

const list = (names: readonly string[]): string => names.map((name) => JSON.stringify(name)).join(', ');

/** Why a CTA is served, and what still keeps the device from acting on it. */
function servedMessage(cta: CatalogueCta, userId: string, cohorts: readonly string[], device: DeviceView): string {
  const included = cta.eligibility.includes.filter((cohort) => cohorts.includes(cohort));
  const why = cta.isTest
    ? `test CTA ${cta.id} lists user ${userId} until ${describeInstant(cta.expiresAt as number)}`
    : `${cta.status === 'live' ? 'live' : 'scheduled and started'}, and the user is in ${list(included)} of includes`;
  const held = [
    device.lifespan.reached && `its lifeSpan cap is reached (resets: ${device.lifespan.count}, limit ${device.lifespan.limit})`,
    device.window.reached && `its window cap is reached (resets in the window: ${device.window.count}, limit ${device.window.limit})`,
    device.tag?.blocked && `its behaviour tag blocks it (${device.tag.relation}; CTAs ${list(device.tag.by)})`,
  ].filter(Boolean);
  return held.length > 0 ? `served (${why}), but the device will not act on it: ${held.join('; ')}` : `served: ${why}`;
}

function blockMessage(block: ServingBlock, cta: CatalogueCta, context: ReasonContext): string {
  const { userId, cohorts } = context;
  switch (block) {
    case 'NOT_LIVE':
      return `CTA ${cta.id} is ${cta.status}: devices get only live CTAs (and scheduled ones once started)`;
    case 'NOT_STARTED':
      return cta.startTime === null
        ? `CTA ${cta.id} is scheduled without a startTime`
        : `CTA ${cta.id} is scheduled to start at ${describeInstant(cta.startTime)}`;
    case 'ENDED':
      return `CTA ${cta.id} ended at ${describeInstant(cta.endTime as number)}`;
    case 'TEST_CTA_EXPIRED':
      return cta.expiresAt === null
        ? `test CTA ${cta.id} has no expiry`
        : `test CTA ${cta.id} expired at ${describeInstant(cta.expiresAt)}`;
    case 'TEST_CTA_NOT_LISTED':
      return `test CTA ${cta.id} does not list user ${userId}`;
    case 'NOT_INCLUDED':
      return `the user's cohorts [${list(cohorts)}] include none of includes [${list(cta.eligibility.includes)}]`;
    case 'EXCLUDED':
      return `the user is in the excluded cohort ${list(cta.eligibility.excludes.filter((cohort) => cohorts.includes(cohort)))}`;
    case 'EXPOSURE_CAP_REACHED': {
      const cap = context.exposureCap as ExposureCapReached;
      return (
        `the user acted ${cap.count} times in the exposure policy's window, at most ${cap.limit} allowed: only capExempt CTAs ` +
        `and test CTAs are served until a slot frees at ${describeInstant(cap.freesAt)}`
      );
    }
  }
}

/** A reason of a CTA not served; the exposure cap's with its figures. */
function blockReason(code: ServingBlock, cta: CatalogueCta, context: ReasonContext): Reason {
  const reason: Reason = { code, message: blockMessage(code, cta, context) };
  const cap = context.exposureCap;
  return code === 'EXPOSURE_CAP_REACHED' && cap !== null
    ? { ...reason, count: cap.count, limit: cap.limit, freesAt: new Date(cap.freesAt).toISOString() }
    : reason;
}

/** What the reasons of one CTA are told about the user and the launch. */
export interface ReasonContext {
  userId: string;
  /** Every cohort the user is in, sorted. */
  cohorts: readonly string[];
  /** For a served CTA: what the device will make of it; else null. */
  device: DeviceView | null;
  /** For a served CTA: the served CTAs the device tries before it on trigger events they share. */
  shadows: readonly Shadow[];
  /** For a served CTA: whether the user is in its experiment's holdout (docs/experiments.md). */
  holdout: boolean;
  nameOf(ctaId: string): string | null;
  /** The exposure cap the user's actions reach at this launch; null when under it or off. */
  exposureCap: ExposureCapReached | null;
}

function holdoutMessage(cta: CatalogueCta): string {
  const { holdoutPercent, holdoutEvent } = cta.experiment as NonNullable<CatalogueCta['experiment']>;
  return (
    `served as the holdout variant of the experiment (the user's bucket is in its ${holdoutPercent}% holdout): the same journey, ` +
    `every action replaced by the app event ${JSON.stringify(holdoutEvent)}, so the device shows nothing`
  );
}

function shadowMessage(cta: CatalogueCta, shadow: Shadow, nameOf: ReasonContext['nameOf']): string {
  const name = nameOf(shadow.ctaId);
  const other = `CTA ${shadow.ctaId}${name === null ? '' : ` ${JSON.stringify(name)}`}`;
  const order =
    shadow.priority === cta.priority
      ? `priority ${shadow.priority} as this one, and before it in the launch answer`
      : `priority ${shadow.priority}, before this one's ${cta.priority}`;
  return (
    `the device tries ${other} first on ${list(shadow.events)} (${order}): once it performs an action for one of ` +
    'those events, this CTA passes over conditions leading to a state with an action'
  );
}

/** The reasons of a serving decision (`servingBlocks`), each with its message. */
export function reasonsOf(blocks: number, cta: CatalogueCta, context: ReasonContext): Reason[] {
  const { userId, cohorts, device } = context;
  if (blocks === 0 && device) {
    return [
      { code: 'SERVED', message: servedMessage(cta, userId, cohorts, device) },
      ...(context.holdout ? [{ code: 'HOLDOUT', message: holdoutMessage(cta) } as const] : []),
      ...context.shadows.map((shadow): Reason => ({ code: 'SHADOWED', message: shadowMessage(cta, shadow, context.nameOf) })),
    ];
  }
  return blockNames(blocks).map((code) => blockReason(code, cta, context));
}

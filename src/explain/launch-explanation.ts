import { describeInstant } from '../common/clock';
import type { CtaStatus } from '../ctas/cta.types';
import type { CatalogueCta } from '../sdk/sdk-catalogue';
import { blockNames, ServingBlock } from '../serving/serving-decision';
import type { DeviceView } from './device-view';

/** The answer of `GET /app-users/{userId}/launch`. */
export interface LaunchExplanation {
  userId: string;
  /** The user's cohorts at this launch, sorted. */
  cohorts: string[];
  /** Exactly the `data` a launch without a body would answer now. */
  launch: unknown;
  ctas: CtaExplanation[];
}

export type ReasonCode = 'SERVED' | ServingBlock;

export interface Reason {
  code: ReasonCode;
  message: string;
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

function blockMessage(block: ServingBlock, cta: CatalogueCta, userId: string, cohorts: readonly string[]): string {
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
  }
}

/** The reasons of a serving decision (`servingBlocks`), each with its message. */
export function reasonsOf(
  blocks: number,
  cta: CatalogueCta,
  userId: string,
  cohorts: readonly string[],
  device: DeviceView | null,
): Reason[] {
  if (blocks === 0 && device) {
    return [{ code: 'SERVED', message: servedMessage(cta, userId, cohorts, device) }];
  }
  return blockNames(blocks).map((code) => ({ code, message: blockMessage(code, cta, userId, cohorts) }));
}

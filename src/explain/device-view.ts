import type { CtaRelation, TagExposureRule } from '../behaviour-tags/behaviour-tag.types';
import type { CtaFrequency } from '../rule/rule.types';
import { capReached, countInWindow } from '../rule/device-caps';

/**
 * What a device will make of a served CTA, from the launch answer it gets (machines, resets and
 * its behaviour tag's lists): caps count resets, as devices count them; the session cap starts at
 * 0 with each app session, so it is not shown.
 */

/** A CTA entry of the launch answer, as far as the device view reads it. */
export interface LaunchCtaEntry {
  ctaId: string;
  rule: { frequency: CtaFrequency };
  activeStateMachines: Record<string, { currentState: string }>;
  resetAt: number[];
  behaviourTagName: string | null;
}

/** A behaviour tag entry of the launch answer. */
export interface LaunchTagEntry {
  behaviourTagName: string;
  exposureRule: TagExposureRule & { ctasResetAt: { ctaId: string; resetAt: number }[] };
  ctaRelation: CtaRelation & { activeCtas: string[] };
}

export interface CapCount {
  count: number;
  limit: number;
  reached: boolean;
}

export interface TagBlock {
  blocked: boolean;
  /** The CTAs (ids) whose activity or resets block this one. */
  by: string[];
  relation: string;
}

export interface DeviceView {
  /** machineId → currentState. */
  machines: Record<string, string>;
  lifespan: CapCount;
  window: CapCount;
  tag: TagBlock | null;
  /** Stored machines past createdAt + stateMachineTTL, which this launch drops. */
  expiredMachines: number;
}

const cap = (limit: number, count: number): CapCount => ({ count, limit, reached: capReached(limit, count) });

/**
 * The CTAs of the tag that keep `ctaId` from acting. `ANY`/`REST`: while one CTA of the tag is
 * active the rest hide. `LIST`/`LIST`: as many may be active as the shown list is long, and a CTA
 * of the hide list acts only while none is. Its exposure caps count the resets of all its CTAs.
 */
function blockingCtas(ctaId: string, tag: LaunchTagEntry, now: number): string[] {
  const { shownCta, hideCta, activeCtas } = tag.ctaRelation;
  const others = activeCtas.filter((id) => id !== ctaId);
  let by: string[] = [];
  if (shownCta.rule === 'ANY') {
    by = others;
  } else if (!activeCtas.includes(ctaId) && (hideCta.ctaList.includes(ctaId) || activeCtas.length >= shownCta.ctaList.length)) {
    by = others;
  }
  const { lifespan, window, ctasResetAt } = tag.exposureRule;
  const times = ctasResetAt.map((entry) => entry.resetAt);
  if (capReached(lifespan.limit, ctasResetAt.length)) {
    by = [...by, ...ctasResetAt.map((entry) => entry.ctaId)];
  }
  if (capReached(window.limit, countInWindow(times, window, now))) {
    by = [...by, ...ctasResetAt.filter((entry) => countInWindow([entry.resetAt], window, now) === 1).map((entry) => entry.ctaId)];
  }
  return [...new Set(by)];
}

export function deviceView(cta: LaunchCtaEntry, tag: LaunchTagEntry | undefined, expiredMachines: number, now: number): DeviceView {
  const { lifeSpan, window } = cta.rule.frequency;
  const machines = Object.fromEntries(Object.entries(cta.activeStateMachines).map(([id, machine]) => [id, machine.currentState]));
  const by = tag ? blockingCtas(cta.ctaId, tag, now) : [];
  return {
    machines,
    lifespan: cap(lifeSpan.limit, cta.resetAt.length),
    window: cap(window.limit, countInWindow(cta.resetAt, window, now)),
    tag: tag ? { blocked: by.length > 0, by, relation: `${tag.ctaRelation.shownCta.rule}/${tag.ctaRelation.hideCta.rule}` } : null,
    expiredMachines,
  };
}

/** CTA statuses (DESIGN §6); a new CTA starts in `draft`. */
export const CTA_STATUSES = ['draft', 'paused', 'live', 'scheduled', 'concluded', 'terminated'] as const;
export type CtaStatus = (typeof CTA_STATUSES)[number];

export const WINDOW_UNITS = ['days', 'hours', 'minutes', 'seconds'] as const;
export type WindowUnit = (typeof WINDOW_UNITS)[number];

/** Objects inside a rule keep keys this service does not know (newer SDKs may need them). */
type Open = { [key: string]: unknown };

export interface Limit extends Open {
  limit: number;
}

export interface CtaFrequency extends Open {
  session: Limit;
  window: Limit & { unit: WindowUnit; value: number };
  lifeSpan: Limit;
}

export interface StateTransitionCondition extends Open {
  transitionTo: string;
  filters: Open & { operator: string; filter: Open[] };
}

/** A CTA rule as stored: validated, `lifespan` normalised to `lifeSpan`, no `ctaValidTill`. */
export interface CtaRule extends Open {
  cohortEligibility: Open & { includes: string[]; excludes: string[] };
  stateToAction: Record<string, string>;
  resetStates?: string[];
  resetCTAonFirstLaunch?: boolean;
  contextParams?: string[];
  stateTransition: Record<string, Record<string, StateTransitionCondition[]>>;
  groupByConfig?: Open & { maxActiveStateMachineCount?: number; groupByKeys?: string[] };
  priority: number;
  stateMachineTTL: number;
  actions: Open[];
  frequency: CtaFrequency;
}

/** The cohort every user is in: a rule may name it without the host's cohorts knowing it. */
export const ALL_USERS_COHORT = 'all';

export const WINDOW_UNITS = ['days', 'hours', 'minutes', 'seconds'] as const;
export type WindowUnit = (typeof WINDOW_UNITS)[number];

/** What the mobile SDK can evaluate (docs/decisions/0003-device-rule-grammar.md). */
export const ACTION_TYPES = ['NUDGE_UI', 'POPUP', 'NUDGE_ACTION', 'TOOLTIP'] as const;
export const FILTER_OPERATORS = ['AND', 'OR'] as const;
export const PROPERTY_TYPES = ['string', 'number', 'boolean'] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];
/** The device always fails `!=` on numbers, and knows only `=` for booleans. */
export const COMPARISONS_BY_PROPERTY_TYPE: Readonly<Record<PropertyType, readonly string[]>> = {
  string: ['=', '!='],
  number: ['=', '>', '<', '>=', '<='],
  boolean: ['='],
};

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

/** A filter group; an item with an `operator` key is a nested group, any other a comparison. */
export interface FilterGroup extends Open {
  operator: (typeof FILTER_OPERATORS)[number];
  filter: Open[];
}

export interface StateTransitionCondition extends Open {
  /** A state ("1"); sent as an integer, stored as its string. */
  transitionTo: string;
  /** Absent, null or `{}`: always. */
  filters?: FilterGroup | Record<string, never> | null;
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

import type { WindowUnit } from '../rule/rule.types';

export const CTA_RELATION_RULES = ['ANY', 'LIST', 'REST'] as const;
export type CtaRelationRule = (typeof CTA_RELATION_RULES)[number];

/** Tag form of the exposure rule: note `lifespan` in lower case, unlike a CTA's `frequency`. */
export interface TagExposureRule {
  session: { limit: number };
  window: { limit: number; unit: WindowUnit; value: number };
  lifespan: { limit: number };
}

export interface CtaRelationSide {
  rule: CtaRelationRule;
  /** CTA ids as strings. */
  ctaList: string[];
}

export interface CtaRelation {
  shownCta: CtaRelationSide;
  hideCta: CtaRelationSide;
}

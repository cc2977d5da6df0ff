import { AdminClient } from './admin-client';
import { CtaEntity } from '../src/ctas/cta.entity';
import { dataSourceOf } from './database-contents';
import { examples } from './fixtures';
import type { TestApp } from './harness';

/** Shared by the rule grammar suites (rule-grammar.e2e-spec.ts, ctas-validate.e2e-spec.ts). */

export type Rule = Record<string, any>;

export const FIRST = 'rule.stateTransition.store_opened.0[0]';

export const withRule = (change: (rule: Rule) => void): Rule => {
  const rule = examples.rule();
  change(rule);
  return rule;
};

export const leaf = (fields: Record<string, unknown> = {}) => ({
  propertyName: 'source',
  propertyType: 'string',
  comparisonType: '=',
  comparisonValue: 'home',
  ...fields,
});

/** Four problems at once: all named, in one message. */
export const SEVERAL = withRule((r) => {
  r.stateTransition.store_opened['0'][0].filters.filter[0].comparisonType = 'EQUALS';
  r.stateTransition.store_opened['1'][0].filters.operator = 'XOR';
  r.stateToAction['2'] = 'popup';
  r.actions[1].type = 'BANNER';
});
export const SEVERAL_MESSAGE =
  'rule.actions[1].type: "BANNER" is not one of NUDGE_UI, POPUP, NUDGE_ACTION, TOOLTIP; ' +
  'rule.stateToAction.2: "popup" is not an actionId of rule.actions; ' +
  `${FIRST}.filters.filter[0].comparisonType: "EQUALS" is not one of =, != for propertyType string; ` +
  'rule.stateTransition.store_opened.1[0].filters.operator: "XOR" is not one of AND, OR (exact case)';

/** The helpers of a rule grammar suite, on its app (`api()`: set once the suite has started it). */
export function grammarSuite(api: () => TestApp) {
  let sequence = 0;
  const tenant = (prefix: string): AdminClient => new AdminClient(api(), `${prefix}-${++sequence}`);
  const ctaCount = (tenantId: string) => dataSourceOf(api()).getRepository(CtaEntity).countBy({ tenantId });
  return { tenant, ctaCount };
}

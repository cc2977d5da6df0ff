import { cohortNameProblem } from './cohort-name';
import { checkCohortRule, COHORT_KINDS, CohortKind, type RuleCheck } from './cohort-rule';

/**
 * What a cohort body breaks beyond the types its DTO checks, as message texts: all of it, so one answer
 * names every problem (the body pipe adds these to the DTO's; the service finds the same and, with the
 * database, whether the cohorts a rule names are static ones).
 */

const MAX_DESCRIPTION_LENGTH = 10_000;

type CohortBody = { name?: unknown; description?: unknown; kind?: unknown; rule?: unknown };

const isCohortKind = (kind: unknown): kind is CohortKind => COHORT_KINDS.includes(kind as CohortKind);

/** The name (create) and the description, when they are strings. */
export function cohortFieldProblems(body: CohortBody): string[] {
  const problems: string[] = [];
  const nameProblem = typeof body.name === 'string' ? cohortNameProblem(body.name) : null;
  if (nameProblem !== null) problems.push(nameProblem);
  if (typeof body.description === 'string' && body.description.length > MAX_DESCRIPTION_LENGTH) {
    problems.push(`description must be at most ${MAX_DESCRIPTION_LENGTH} characters`);
  }
  return problems;
}

/** The rule of a cohort of `kind`: none for a static cohort, one in the rule grammar for a rule cohort. */
export function cohortRuleCheck(kind: CohortKind, rule: unknown, creating: boolean): RuleCheck {
  const absent = rule === undefined || rule === null;
  if (kind === 'static') {
    return { problems: absent ? [] : ['rule: static cohorts have no rule (their members are uploaded)'], cohortNames: [] };
  }
  if (absent) return { problems: [creating ? 'rule is required for rule cohorts' : 'rule: a rule cohort needs a rule'], cohortNames: [] };
  return checkCohortRule(rule);
}

/** A create body's problems besides its DTO's (the rule's only when the kind is one). */
export const createCohortProblems = (body: CohortBody): string[] => [
  ...cohortFieldProblems(body),
  ...(isCohortKind(body.kind) ? cohortRuleCheck(body.kind, body.rule, true).problems : []),
];

/** An update body's problems besides its DTO's (its rule is checked against the stored kind, by the service). */
export function updateCohortProblems(body: CohortBody): string[] {
  const fixed = ['name', 'kind'].filter((key) => key in body);
  return [
    ...(fixed.length > 0 ? [`${fixed.join(' and ')} cannot be changed (delete the cohort and create it again)`] : []),
    ...cohortFieldProblems({ description: body.description }),
  ];
}

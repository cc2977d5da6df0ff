import { describeInstant } from '../common/clock';
import type { Problem } from '../common/problems';
import { isJsonObject } from '../common/validation';
import { endAfterStartProblem } from '../cta-lifecycle/cta-edit-plan';
import { checkCtaRule, type RuleCheckOptions } from '../rule/cta-rule';
import type { CtaRule } from '../rule/rule.types';
import { experimentProblems } from './cta-experiment';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Where a CTA's times may lie (docs/decisions/0002-status-lifecycle-and-live-edits.md): [now - tolerance, now + horizon]. */
export interface CtaTimeBounds {
  now: number;
  toleranceMs: number;
  horizonDays: number;
  /** No lower bound: a live edit's times follow the CTA's status instead (`editRefusal`). */
  pastAllowed?: boolean;
}

/** Each time sent must lie within `bounds`, and endTime after startTime. */
export function timeProblems(body: { startTime?: number | null; endTime?: number | null }, bounds: CtaTimeBounds): Problem[] {
  const { now, toleranceMs, horizonDays, pastAllowed = false } = bounds;
  const earliest = now - toleranceMs;
  const latest = now + horizonDays * DAY_MS;
  const problems: Problem[] = [];
  for (const field of ['startTime', 'endTime'] as const) {
    const time = body[field];
    if (typeof time === 'number' && ((time < earliest && !pastAllowed) || time > latest)) {
      problems.push({
        path: field,
        message:
          `must lie between ${describeInstant(earliest)} (now - ${toleranceMs} ms) and ${describeInstant(latest)} ` +
          `(now + ${horizonDays} days), not ${describeInstant(time)}, ${time < earliest ? 'in the past' : 'too far ahead'}`,
      });
    }
  }
  const order =
    typeof body.startTime === 'number' && typeof body.endTime === 'number' ? endAfterStartProblem(body.startTime, body.endTime) : null;
  return order ? [...problems, order] : problems;
}

/** A CTA body as far as the check reads it: create, update, restore, validate, test CTA create (whose DTO has no times or experiment). */
export interface CheckedFields {
  rule?: unknown;
  experiment?: unknown;
  startTime?: number | null;
  endTime?: number | null;
}

export interface CtaBodyCheckOptions {
  rule?: RuleCheckOptions;
  /** Null: the times are not checked (a test CTA has none, or the fields already refused them). */
  times: CtaTimeBounds | null;
  /** A rule that is not an object is the fields' problem, already named: no rule problem then. */
  ruleFieldChecked?: boolean;
  /** False: the body has no experiment to check (a test CTA's DTO refuses the field). */
  experiment?: boolean;
}

/** What the check finds: the rule as it would be stored (null when it is invalid) and every problem, by kind. */
export interface CtaBodyCheck {
  rule: CtaRule | null;
  /** The rule's problems, then the experiment's (docs/experiments.md, against the rule). */
  problems: Problem[];
  times: Problem[];
  /** Values the rule check would store otherwise than sent. */
  normalised: Problem[];
}

/**
 * The one check of a CTA body beyond its DTO's field types, shared by create and update (the body pipes
 * and the service), validate and the test CTA body pipe: the device rule, the experiment, the times.
 */
export function checkCtaBody(body: CheckedFields, options: CtaBodyCheckOptions): CtaBodyCheck {
  const ruleCheck =
    options.ruleFieldChecked && !isJsonObject(body.rule)
      ? { rule: null, problems: [], normalised: [] }
      : checkCtaRule(body.rule, options.rule);
  return {
    rule: ruleCheck.rule,
    problems: [
      ...ruleCheck.problems,
      ...(options.experiment === false ? [] : experimentProblems(body.experiment, ruleCheck.rule ?? body.rule)),
    ],
    times: options.times === null ? [] : timeProblems(body, options.times),
    normalised: ruleCheck.normalised,
  };
}

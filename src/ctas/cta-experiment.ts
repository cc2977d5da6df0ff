import { isJsonObject } from '../common/validation';
import type { Problem } from '../common/problems';
import { ruleStates } from '../rule/cta-state-graph';

/**
 * A CTA's experiment (docs/experiments.md, docs/decisions/0026-experiments.md): a holdout of its users
 * served a silent variant, and the goal state whose reach it measures. Top level of the CTA body,
 * beside `rule`; never sent to devices.
 */
export interface CtaExperiment {
  /** 1–50: the share of users in the holdout. */
  holdoutPercent: number;
  /** A state of the rule other than "0": a user converts when a machine of theirs reaches it. */
  goal: { state: string };
  /** 1–30 (default 7): how long after exposure a conversion counts. */
  windowDays: number;
  /** The app event the holdout variant emits where the treatment would act (default "cta_holdout"). */
  holdoutEvent: string;
}

export const DEFAULT_WINDOW_DAYS = 7;
export const DEFAULT_HOLDOUT_EVENT = 'cta_holdout';
export const HOLDOUT_PERCENT_RANGE = [1, 50] as const;
export const WINDOW_DAYS_RANGE = [1, 30] as const;
const MAX_EVENT_NAME_LENGTH = 255;
const KEYS = ['holdoutPercent', 'goal', 'windowDays', 'holdoutEvent'];

const shown = (value: unknown): string => (value === undefined ? 'nothing' : JSON.stringify(value));
const integerIn = (value: unknown, [low, high]: readonly [number, number]): value is number =>
  Number.isSafeInteger(value) && (value as number) >= low && (value as number) <= high;

/**
 * Every problem of `experiment` (as sent: null or undefined is no experiment) for a CTA of `rule`, each
 * at its path (`experiment.goal.state`). `rule` is the rule as sent; its own problems are the rule's.
 */
export function experimentProblems(experiment: unknown, rule: unknown): Problem[] {
  if (experiment === null || experiment === undefined) return [];
  if (!isJsonObject(experiment)) {
    return [
      {
        path: 'experiment',
        message: `must be an object {holdoutPercent, goal: {state}, windowDays?, holdoutEvent?} or null, not ${shown(experiment)}`,
      },
    ];
  }
  const problems: Problem[] = [];
  for (const key of Object.keys(experiment)) {
    if (!KEYS.includes(key)) problems.push({ path: `experiment.${key}`, message: `is not a field of an experiment (${KEYS.join(', ')})` });
  }
  const { holdoutPercent, goal, windowDays, holdoutEvent } = experiment;
  if (!integerIn(holdoutPercent, HOLDOUT_PERCENT_RANGE)) {
    problems.push({ path: 'experiment.holdoutPercent', message: `must be an integer from 1 to 50, not ${shown(holdoutPercent)}` });
  }
  if (windowDays !== undefined && !integerIn(windowDays, WINDOW_DAYS_RANGE)) {
    problems.push({ path: 'experiment.windowDays', message: `must be an integer from 1 to 30 (default 7), not ${shown(windowDays)}` });
  }
  if (
    holdoutEvent !== undefined &&
    (typeof holdoutEvent !== 'string' || holdoutEvent.trim() === '' || holdoutEvent.length > MAX_EVENT_NAME_LENGTH)
  ) {
    problems.push({
      path: 'experiment.holdoutEvent',
      message: `must be an event name of 1-${MAX_EVENT_NAME_LENGTH} characters (default "${DEFAULT_HOLDOUT_EVENT}"), not ${shown(holdoutEvent)}`,
    });
  }
  problems.push(...goalProblems(goal, rule));
  return problems;
}

function goalProblems(goal: unknown, rule: unknown): Problem[] {
  if (!isJsonObject(goal) || Object.keys(goal).some((key) => key !== 'state')) {
    return [{ path: 'experiment.goal', message: `must be an object {"state": "<a state of the rule>"}, not ${shown(goal)}` }];
  }
  const state = typeof goal.state === 'number' && Number.isSafeInteger(goal.state) ? String(goal.state) : goal.state;
  if (typeof state !== 'string') {
    return [{ path: 'experiment.goal.state', message: `must be a state of the rule (a string such as "2"), not ${shown(goal.state)}` }];
  }
  if (state === '0') {
    return [{ path: 'experiment.goal.state', message: 'must not be "0": every machine starts there, so every user would convert' }];
  }
  const states = ruleStates(rule);
  if (!states.has(state)) {
    const named = [...states].filter((name) => name !== '0');
    return [
      {
        path: 'experiment.goal.state',
        message: `${JSON.stringify(state)} is not a state of the rule (its states besides "0": ${named.length > 0 ? named.map((name) => JSON.stringify(name)).join(', ') : 'none'})`,
      },
    ];
  }
  return [];
}

/** A checked experiment as stored and read: its defaults filled in, the goal state a string; null for none. */
export function storedExperiment(experiment: unknown): CtaExperiment | null {
  if (!isJsonObject(experiment)) return null;
  const goal = experiment.goal as { state: string | number };
  return {
    holdoutPercent: experiment.holdoutPercent as number,
    goal: { state: String(goal.state) },
    windowDays: (experiment.windowDays as number | undefined) ?? DEFAULT_WINDOW_DAYS,
    holdoutEvent: (experiment.holdoutEvent as string | undefined) ?? DEFAULT_HOLDOUT_EVENT,
  };
}

/** Whether two stored experiments (null: none) are the same experiment. */
export const sameExperiment = (a: CtaExperiment | null, b: CtaExperiment | null): boolean =>
  a === null || b === null
    ? a === b
    : a.holdoutPercent === b.holdoutPercent &&
      a.goal.state === b.goal.state &&
      a.windowDays === b.windowDays &&
      a.holdoutEvent === b.holdoutEvent;

import { createHash, hash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import * as semver from 'semver';
import type { CohortClient } from './cohort-provider';

/**
 * The rule of a rule cohort (docs/decisions/0008-cohorts.md): `{"all": [...]}` or `{"any": [...]}`, nested up to
 * depth 3, over the launch's client attributes and user id. Validated whole on write (every
 * problem named with its path); compiled once per catalogue into a predicate for the launch.
 */

export type CohortKind = 'static' | 'rule';
export const COHORT_KINDS: readonly CohortKind[] = ['static', 'rule'];

export const COHORT_ATTRIBUTES = ['appVersion', 'packageName', 'hotpatchVersion'] as const;
export type CohortAttribute = (typeof COHORT_ATTRIBUTES)[number];

const STRING_OPS = ['eq', 'neq'] as const;
const SET_OPS = ['in', 'notIn'] as const;
const SEMVER_OPS = ['semverLt', 'semverLte', 'semverGt', 'semverGte', 'semverEq'] as const;
const OPS = [...STRING_OPS, ...SET_OPS, ...SEMVER_OPS] as const;
type Op = (typeof OPS)[number];

export type CohortCondition =
  | { attribute: CohortAttribute; op: 'eq' | 'neq'; value: string }
  | { attribute: CohortAttribute; op: 'in' | 'notIn'; values: string[] }
  | { attribute: 'appVersion'; op: (typeof SEMVER_OPS)[number]; value: string }
  | { bucket: { from: number; to: number; salt?: string } }
  | { cohort: string }
  | CohortRule;

export type CohortRule = { all: CohortCondition[] } | { any: CohortCondition[] };

const MAX_RULE_DEPTH = 3;
const MAX_RULE_CONDITIONS = 100;
const MAX_RULE_VALUES = 1000;
const MAX_STRING_LENGTH = 255;
const MAX_PROBLEMS = 20;

const LOOSE = { loose: true } as const;
/** `5` and `5.2` read as `5.0.0` and `5.2.0`; anything else must be a (loose) semver version. */
const SHORT_VERSION = /^\s*v?(\d+)(?:\.(\d+))?\s*$/;

/** A version as semver reads it (loose), or null when the text is not a version. */
export function parseVersion(text: string): semver.SemVer | null {
  const short = SHORT_VERSION.exec(text);
  if (short) {
    return semver.parse(`${short[1]}.${short[2] ?? '0'}.0`, LOOSE);
  }
  return semver.parse(text.trim(), LOOSE);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const show = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

class Problems {
  readonly list: string[] = [];
  conditions = 0;
  /** Names of the static cohorts the rule's `cohort` conditions name. */
  readonly cohortNames: { path: string; name: string }[] = [];

  add(path: string, message: string): void {
    this.list.push(`${path}: ${message}`);
  }
}

const isShortString = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= MAX_STRING_LENGTH;
const STRING_RULE = `a non-empty string of at most ${MAX_STRING_LENGTH} characters`;

function checkGroup(rule: unknown, path: string, depth: number, problems: Problems): void {
  if (!isObject(rule)) {
    problems.add(path, 'must be an object {"all": [...]} or {"any": [...]}');
    return;
  }
  const keys = Object.keys(rule);
  if (keys.length !== 1 || (keys[0] !== 'all' && keys[0] !== 'any')) {
    problems.add(path, `must have exactly one key, "all" or "any" (got ${keys.map((key) => JSON.stringify(key)).join(', ') || 'none'})`);
    return;
  }
  const key = keys[0];
  if (depth > MAX_RULE_DEPTH) {
    problems.add(`${path}.${key}`, `groups nest at most ${MAX_RULE_DEPTH} deep`);
    return;
  }
  const conditions = rule[key];
  if (!Array.isArray(conditions) || conditions.length === 0) {
    problems.add(`${path}.${key}`, 'must be a non-empty array of conditions');
    return;
  }
  conditions.forEach((condition, index) => checkCondition(condition, `${path}.${key}[${index}]`, depth, problems));
}

function checkCondition(condition: unknown, path: string, depth: number, problems: Problems): void {
  if (++problems.conditions > MAX_RULE_CONDITIONS) {
    if (problems.conditions === MAX_RULE_CONDITIONS + 1) problems.add(path, `a rule has at most ${MAX_RULE_CONDITIONS} conditions`);
    return;
  }
  if (!isObject(condition)) {
    problems.add(path, 'must be an object (a condition, or a group {"all": [...]} / {"any": [...]})');
    return;
  }
  if ('all' in condition || 'any' in condition) {
    checkGroup(condition, path, depth + 1, problems);
  } else if ('bucket' in condition) {
    checkBucket(condition, path, problems);
  } else if ('cohort' in condition) {
    checkKeys(condition, ['cohort'], path, problems);
    if (!isShortString(condition.cohort)) {
      problems.add(`${path}.cohort`, `must be ${STRING_RULE}, the name of a static cohort`);
    } else {
      problems.cohortNames.push({ path: `${path}.cohort`, name: condition.cohort });
    }
  } else if ('attribute' in condition) {
    checkAttributeCondition(condition, path, problems);
  } else {
    problems.add(path, 'must have "attribute", "bucket", "cohort", "all" or "any"');
  }
}

function checkKeys(condition: Record<string, unknown>, allowed: string[], path: string, problems: Problems): void {
  for (const key of Object.keys(condition)) {
    if (!allowed.includes(key)) problems.add(`${path}.${key}`, `is not a key of this condition (allowed: ${allowed.join(', ')})`);
  }
}

function checkAttributeCondition(condition: Record<string, unknown>, path: string, problems: Problems): void {
  const { attribute, op } = condition;
  if (!COHORT_ATTRIBUTES.includes(attribute as CohortAttribute)) {
    problems.add(`${path}.attribute`, `${show(attribute)} is not one of ${COHORT_ATTRIBUTES.join(', ')}`);
  }
  if (!OPS.includes(op as Op)) {
    problems.add(`${path}.op`, `${show(op)} is not one of ${OPS.join(', ')}`);
    return;
  }
  if (SET_OPS.includes(op as (typeof SET_OPS)[number])) {
    checkKeys(condition, ['attribute', 'op', 'values'], path, problems);
    const { values } = condition;
    if (!Array.isArray(values) || values.length === 0 || values.length > MAX_RULE_VALUES) {
      problems.add(`${path}.values`, `must be an array of 1 to ${MAX_RULE_VALUES} strings`);
    } else {
      values.forEach((value, index) => {
        if (!isShortString(value)) problems.add(`${path}.values[${index}]`, `must be ${STRING_RULE}`);
      });
    }
    return;
  }
  checkKeys(condition, ['attribute', 'op', 'value'], path, problems);
  if (!isShortString(condition.value)) {
    problems.add(`${path}.value`, `must be ${STRING_RULE}`);
    return;
  }
  if (SEMVER_OPS.includes(op as (typeof SEMVER_OPS)[number])) {
    if (attribute !== 'appVersion') {
      problems.add(`${path}.op`, `${op} applies to appVersion only`);
    }
    if (!parseVersion(condition.value)) {
      problems.add(`${path}.value`, `${show(condition.value)} is not a version (semver, e.g. "5.2.0"; "5.2" means 5.2.0)`);
    }
  }
}

function checkBucket(condition: Record<string, unknown>, path: string, problems: Problems): void {
  checkKeys(condition, ['bucket'], path, problems);
  const bucket = condition.bucket;
  if (!isObject(bucket)) {
    problems.add(`${path}.bucket`, 'must be an object {"from", "to", "salt"?}');
    return;
  }
  checkKeys(bucket, ['from', 'to', 'salt'], `${path}.bucket`, problems);
  const { from, to, salt } = bucket;
  const inRange = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 100;
  if (!inRange(from)) problems.add(`${path}.bucket.from`, `must be an integer from 0 to 100 (got ${show(from)})`);
  if (!inRange(to)) problems.add(`${path}.bucket.to`, `must be an integer from 0 to 100 (got ${show(to)})`);
  if (inRange(from) && inRange(to) && from >= to) problems.add(`${path}.bucket`, `from (${from}) must be below to (${to})`);
  if (salt !== undefined && !isShortString(salt)) problems.add(`${path}.bucket.salt`, `must be ${STRING_RULE}`);
}

export interface RuleCheck {
  /** Every problem, with its path (at most 20). */
  problems: string[];
  /** The cohorts its `cohort` conditions name, with their paths: the caller checks they are static cohorts. */
  cohortNames: { path: string; name: string }[];
}

/** The problems of `rule` (at `path`, e.g. `rule`), in the grammar of docs/decisions/0008-cohorts.md. */
export function checkCohortRule(rule: unknown, path = 'rule'): RuleCheck {
  const problems = new Problems();
  checkGroup(rule, path, 1, problems);
  return { problems: problems.list.slice(0, MAX_PROBLEMS), cohortNames: problems.cohortNames };
}

/** What a compiled rule reads at a launch. */
export interface RuleInput {
  tenantId: string;
  userId: string;
  client: CohortClient;
  /** Whether the user is in the static cohort of that name. */
  isMember(cohortName: string): boolean;
}

export type RulePredicate = (input: RuleInput) => boolean;

/**
 * SHA-256 as hex: Node's one-shot `crypto.hash` (20.12 and later) makes no Hash object per call,
 * and hex output no Buffer (together a third of `createHash(…).digest()`'s cost, measured).
 */
const sha256Hex: (text: string) => string =
  typeof hash === 'function' ? (text) => hash('sha256', text, 'hex') : (text) => createHash('sha256').update(text).digest('hex');

/**
 * The user's bucket in 0 to `buckets` - 1 for a salt (percentiles by default; an experiment's split uses
 * 10,000): the same on every instance and launch, independent across salts (a cryptographic hash of
 * tenant, salt and user id).
 */
export function bucketOf(tenantId: string, salt: string, userId: string, buckets = 100): number {
  return parseInt(sha256Hex(`${tenantId}\u0000${salt}\u0000${userId}`).slice(0, 8), 16) % buckets;
}

/**
 * Each op on `SemVer#compare` of the two parsed versions (semver's `lt` & co. would parse both
 * again, strictly, on every call).
 */
const SEMVER_COMPARE: Record<(typeof SEMVER_OPS)[number], (order: number) => boolean> = {
  semverLt: (order) => order < 0,
  semverLte: (order) => order <= 0,
  semverGt: (order) => order > 0,
  semverGte: (order) => order >= 0,
  semverEq: (order) => order === 0,
};

/** Longer `app_version` headers are parsed every time rather than held in the cache. */
const MAX_CACHED_VERSION_LENGTH = 64;
/** Apps send few distinct versions: each is parsed once, not once per rule and launch (false: not a version). */
const clientVersions = new LRUCache<string, semver.SemVer | false>({ max: 1000 });

/** The launch's `appVersion` as a version, or null when it is not one. */
function clientVersion(text: string): semver.SemVer | null {
  if (text.length > MAX_CACHED_VERSION_LENGTH) return parseVersion(text);
  let version = clientVersions.get(text);
  if (version === undefined) {
    version = parseVersion(text) ?? false;
    clientVersions.set(text, version);
  }
  return version || null;
}

/** A checked rule as a predicate; `cohortName` is the bucket's default salt. */
export function compileCohortRule(rule: CohortRule, cohortName: string): RulePredicate {
  const compileCondition = (condition: CohortCondition): RulePredicate => {
    if ('all' in condition) {
      const parts = condition.all.map(compileCondition);
      return (input) => parts.every((part) => part(input));
    }
    if ('any' in condition) {
      const parts = condition.any.map(compileCondition);
      return (input) => parts.some((part) => part(input));
    }
    if ('bucket' in condition) {
      const { from, to, salt = cohortName } = condition.bucket;
      return (input) => {
        const bucket = bucketOf(input.tenantId, salt, input.userId);
        return bucket >= from && bucket < to;
      };
    }
    if ('cohort' in condition) {
      const name = condition.cohort;
      return (input) => input.isMember(name);
    }
    const { attribute } = condition;
    const valueOf = (input: RuleInput): string | null => input.client[attribute] ?? null;
    switch (condition.op) {
      case 'eq': {
        const { value } = condition;
        return (input) => valueOf(input) === value;
      }
      case 'neq': {
        const { value } = condition;
        return (input) => {
          const actual = valueOf(input);
          return actual !== null && actual !== value;
        };
      }
      case 'in':
      case 'notIn': {
        const values = new Set(condition.values);
        const wanted = condition.op === 'in';
        return (input) => {
          const actual = valueOf(input);
          return actual !== null && values.has(actual) === wanted;
        };
      }
      default: {
        const expected = parseVersion(condition.value) as semver.SemVer;
        const holds = SEMVER_COMPARE[condition.op];
        return (input) => {
          const actual = valueOf(input);
          const version = actual === null ? null : clientVersion(actual);
          return version !== null && holds(version.compare(expected));
        };
      }
    }
  };
  return compileCondition(rule);
}

/** The static cohorts a rule's `cohort` conditions name. */
export function cohortsNamedBy(rule: CohortRule): string[] {
  const names: string[] = [];
  const visit = (condition: CohortCondition): void => {
    if ('all' in condition) condition.all.forEach(visit);
    else if ('any' in condition) condition.any.forEach(visit);
    else if ('cohort' in condition) names.push(condition.cohort);
  };
  visit(rule);
  return names;
}

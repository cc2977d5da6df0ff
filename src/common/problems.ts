import type { ValidationError } from '@nestjs/common';

/** One thing wrong with a request body, at its JSON path (`rule.actions[1].actionId`). */
export interface Problem {
  path: string;
  message: string;
}

/** How many problems one error message names; the rest are counted. */
export const MAX_PROBLEMS_NAMED = 20;

/**
 * One message of many problems: the first 20 texts separated by `; `, then how many more there are
 * (`total`, when more were found than kept).
 */
export function joinProblemTexts(texts: readonly string[], total = texts.length): string {
  const more = total - Math.min(texts.length, MAX_PROBLEMS_NAMED);
  return texts.slice(0, MAX_PROBLEMS_NAMED).join('; ') + (more > 0 ? `; and ${more} more` : '');
}

/** A problem as `path: problem` (a rule's, a list's entries). */
export const problemText = ({ path, message }: Problem): string => `${path}: ${message}`;

/** `path: problem; path: problem` — the first 20, then how many more there are. */
export const joinProblems = (problems: readonly Problem[]): string => joinProblemTexts(problems.map(problemText));

/** A JSON path one step down: `.key` for object keys, `[i]` for list indices. */
export const pathTo = (path: string, key: string | number): string =>
  typeof key === 'number' ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`;

/**
 * Constraints that check what kind of value a field holds, most telling first. When one of them
 * fails, the field's other constraints fail as a consequence ("must contain no more than 100
 * elements" for a string, "must be longer than or equal to 1 characters" for a number): only the
 * type is reported (docs/decisions/0014-admin-console.md).
 */
const TYPE_CONSTRAINTS = ['isString', 'isInt', 'isNumber', 'isBoolean', 'isArray', 'isObject', 'nestedValidation'];

const EACH_VALUE = 'each value in ';

/** A constraint's text without the property name it starts with: "must be a string", "each value must be a string". */
function withoutProperty(constraint: string, property: string): string {
  if (constraint.startsWith(`${property} `)) return constraint.slice(property.length + 1);
  if (constraint.startsWith(`${EACH_VALUE}${property} `)) return `each value ${constraint.slice(EACH_VALUE.length + property.length + 1)}`;
  return constraint;
}

/** A field's own problems: "is required" when absent, else its type error alone, else every rule it breaks. */
function fieldProblems(error: ValidationError, path: string): Problem[] {
  const constraints = error.constraints ?? {};
  if (Object.keys(constraints).length === 0) return [];
  if (error.value === undefined) return [{ path, message: 'is required' }];
  const typeError = TYPE_CONSTRAINTS.find((name) => constraints[name] !== undefined);
  // Worded "nested property <name> must be either object or array"; nested DTOs are objects here.
  if (typeError === 'nestedValidation') return [{ path, message: 'must be an object' }];
  const typeText = typeError === undefined ? undefined : constraints[typeError];
  // A wrong type of the whole value hides its other rules; a wrong type of some elements hides only the other per-element rules.
  const texts =
    typeText === undefined
      ? Object.values(constraints)
      : typeText.startsWith(EACH_VALUE)
        ? Object.values(constraints).filter((text) => text === typeText || !text.startsWith(EACH_VALUE))
        : [typeText];
  return texts.map((text) => ({ path, message: withoutProperty(text, error.property) }));
}

/** Absent, or not of its type at all (as opposed to an array some of whose elements are wrong). */
const isWhollyWrong = (error: ValidationError): boolean =>
  error.value === undefined ||
  TYPE_CONSTRAINTS.some((name) => error.constraints?.[name] !== undefined && !error.constraints[name].startsWith(EACH_VALUE));

/**
 * Every problem of class-validator's errors, each at its full path. Needs the errors' values
 * (`validationError.value: true`) to tell a missing field from a wrong one.
 */
export function validationProblems(errors: readonly ValidationError[], parentPath = ''): Problem[] {
  return errors.flatMap((error) => {
    // class-validator names array items by index: shown as `[i]`, as in the rule checker's paths.
    const path =
      /^\d+$/.test(error.property) && parentPath !== '' ? pathTo(parentPath, Number(error.property)) : pathTo(parentPath, error.property);
    const own = fieldProblems(error, path);
    // The fields inside a value of the wrong type are not worth reporting.
    if (isWhollyWrong(error) && own.length > 0) return own;
    const nested = validationProblems(error.children ?? [], path);
    // "each value must be an object" is restated per element by the nested problems ("events[0] must be an object").
    return nested.length > 0 ? [...own.filter((problem) => !problem.message.startsWith('each value ')), ...nested] : own;
  });
}

/** A field problem as a sentence: `name must be a string`, `each value in tags must be a string`. */
export const fieldProblemSentence = ({ path, message }: Problem): string =>
  message.startsWith('each value ') ? `${EACH_VALUE}${path} ${message.slice('each value '.length)}` : `${path} ${message}`;

/** `name must be a string; each value in tags must be a string` — field problems as sentences, the first 20, then how many more. */
export const fieldProblemsText = (problems: readonly Problem[]): string => joinProblemTexts(problems.map(fieldProblemSentence));

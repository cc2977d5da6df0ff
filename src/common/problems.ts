import type { ValidationError } from '@nestjs/common';

/** One thing wrong with a request body, at its JSON path (`rule.actions[1].actionId`). */
export interface Problem {
  path: string;
  message: string;
}

/** How many problems one error message names; the rest are counted. */
export const MAX_PROBLEMS_NAMED = 20;

/** `path: problem; path: problem` — the first 20, then how many more there are. */
export function joinProblems(problems: readonly Problem[]): string {
  const named = problems.slice(0, MAX_PROBLEMS_NAMED).map(({ path, message }) => `${path}: ${message}`);
  const more = problems.length - named.length;
  return named.join('; ') + (more > 0 ? `; and ${more} more` : '');
}

/** A JSON path one step down: `.key` for object keys, `[i]` for list indices. */
export const pathTo = (path: string, key: string | number): string =>
  typeof key === 'number' ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`;

/** Every failed constraint of class-validator's errors, each at its full path. */
export function validationProblems(errors: readonly ValidationError[], parentPath = ''): Problem[] {
  return errors.flatMap((error) => {
    // class-validator names array items by index: shown as `[i]`, as in the rule checker's paths.
    const path = /^\d+$/.test(error.property) && parentPath !== '' ? pathTo(parentPath, Number(error.property)) : pathTo(parentPath, error.property);
    const own = Object.values(error.constraints ?? {}).map((constraint) => ({
      path,
      // Constraint texts start with the bare property name ("team must be a string"): the path replaces it.
      message: constraint.startsWith(`${error.property} `) ? constraint.slice(error.property.length + 1) : constraint,
    }));
    return [...own, ...validationProblems(error.children ?? [], path)];
  });
}

import { ALL_USERS_COHORT } from './cohort-provider';

/** A cohort name (docs/decisions/0008-cohorts.md): 1–255 characters of A-Z, a-z, 0-9, '.', '_', ':' or '-'. */
export const COHORT_NAME_PATTERN = /^[A-Za-z0-9._:-]{1,255}$/;

/** Why `name` cannot name a new cohort, or null when it can. */
export function cohortNameProblem(name: string): string | null {
  if (!COHORT_NAME_PATTERN.test(name)) {
    return `name must be 1-255 characters of A-Z, a-z, 0-9, '.', '_', ':' or '-' (got ${JSON.stringify(name.length > 60 ? `${name.slice(0, 57)}...` : name)})`;
  }
  if (name === ALL_USERS_COHORT) {
    return `name '${ALL_USERS_COHORT}' is reserved: every user is in it`;
  }
  return null;
}

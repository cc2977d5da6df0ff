import { userIdValue } from '../common/user-id';
import { parseCtaIdValue } from '../common/cta-id';

/**
 * The fields of a test CTA body read by hand: `userIds` (JSON integers within 2^53 — beyond that JSON numbers
 * lose digits, so larger ids come as strings — or decimal strings fitting a signed 64-bit long) and
 * `previousCtaId`. Every bad entry is named, so one answer lists them all.
 */

const USER_ID_RULE = 'must be a user id: an integer (a decimal string beyond 2^53) that fits a signed 64-bit long';

/** The `userIds` as canonical decimal strings, duplicates removed, and a problem for each entry that is no user id. */
export function readTestUserIds(values: readonly unknown[]): { userIds: string[]; problems: string[] } {
  const userIds = new Set<string>();
  const problems: string[] = [];
  values.forEach((value, index) => {
    const id = userIdValue(value);
    if (id === null) problems.push(`userIds[${index}] ${USER_ID_RULE}`);
    else userIds.add(id);
  });
  return { userIds: [...userIds], problems };
}

/** The entries of `userIds` that are no user id, each named by its index. */
export const testUserIdProblems = (values: readonly unknown[]): string[] => readTestUserIds(values).problems;

/** `previousCtaId`: absent or null, or a CTA id (a positive integer, as a number or a decimal string). */
export function readPreviousCtaId(value: unknown): { id: number | null; problem: string | null } {
  if (value === undefined || value === null) return { id: null, problem: null };
  const id = parseCtaIdValue(value);
  return id === null
    ? { id, problem: 'previousCtaId must be a CTA id: a positive integer (number or decimal string)' }
    : { id, problem: null };
}

export const previousCtaIdProblem = (value: unknown): string | null => readPreviousCtaId(value).problem;

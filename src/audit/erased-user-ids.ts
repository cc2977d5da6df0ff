import type { Operation } from 'fast-json-patch';

/** What an erased user's id becomes in the audit history (docs/decisions/0017-user-data-export-and-erase.md). */
export const ERASED_USER_ID = 'erased';

/** The parts of an entry that can name app users: test CTA records hold them in `userIds`. */
export interface RecordedDocuments {
  before: object | null;
  after: object | null;
  changes: Operation[];
}

/** A `userIds` list, or one of its elements, addressed by a patch operation's path. */
const USER_IDS_PATH = /(^|\/)userIds$/;
const USER_ID_PATH = /(^|\/)userIds\/(\d+|-)$/;

/**
 * `documents` with `userId` replaced by "erased" in every `userIds` list — in `before`, `after` and
 * the patch (the records its operations carry, and values written at a `userIds` path); null when
 * none of them names the user.
 */
export function withUserIdErased(documents: RecordedDocuments, userId: string): RecordedDocuments | null {
  let found = false;
  const ids = (list: unknown[]): unknown[] =>
    list.map((id) => {
      if (id !== userId) return id;
      found = true;
      return ERASED_USER_ID;
    });
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, key === 'userIds' && Array.isArray(inner) ? ids(inner) : walk(inner)]),
    );
  };
  const operation = (op: Operation): Operation => {
    const walked = walk(op) as Operation & { value?: unknown };
    if (!('value' in walked)) return walked;
    if (USER_IDS_PATH.test(op.path) && Array.isArray(walked.value)) return { ...walked, value: ids(walked.value) } as Operation;
    if (USER_ID_PATH.test(op.path)) return { ...walked, value: ids([walked.value])[0] } as Operation;
    return walked;
  };
  const erased: RecordedDocuments = {
    before: walk(documents.before) as object | null,
    after: walk(documents.after) as object | null,
    changes: documents.changes.map(operation),
  };
  return found ? erased : null;
}

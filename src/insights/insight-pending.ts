import type { SqlStatement } from '../database/pool-transaction';
import type { UserState } from '../sdk/user-state';
import { type InsightBaseline, type InsightChange, insightChanges } from './insight-changes';

/**
 * The pending rows (docs/decisions/0018-campaign-insights.md): a write of a user's state appends one row per CTA
 * whose counts it changed, in its own transaction, to `insight_pending` — append-only, keyed by an
 * auto-increment id, so merges of different users never write the same row (no hot row, no Galera
 * certification conflict). The periodic fold adds them to the daily and per-CTA rows and deletes
 * them; a read adds those not folded yet.
 */

/** A pending row's counts: the change without its CTA id, parts left out when empty. */
interface PendingCounts {
  d?: InsightChange['days'];
  u?: number;
  s?: InsightChange['states'];
}

export type PendingChange = Omit<InsightChange, 'ctaId'>;

/** The longest state name counted as it is (the key column's length); a longer one counts under its first this many characters. */
export const MAX_STATE_NAME_LENGTH = 255;

const stateKey = (name: string): string =>
  name.length <= MAX_STATE_NAME_LENGTH ? name : [...name].slice(0, MAX_STATE_NAME_LENGTH).join('');

function countsText({ days, users, states }: InsightChange): string {
  const counts: PendingCounts = {};
  if (days.length > 0) counts.d = days;
  if (users !== 0) counts.u = users;
  if (states.length > 0) counts.s = states.map(([name, change]) => [stateKey(name), change]);
  return JSON.stringify(counts);
}

export function readPendingCounts(text: string): PendingChange {
  const counts = JSON.parse(text) as PendingCounts;
  return { days: counts.d ?? [], users: counts.u ?? 0, states: counts.s ?? [] };
}

const appendRows = (rows: number): string =>
  `INSERT INTO insight_pending (tenant_id, cta_id, counts) VALUES ${new Array(rows).fill('(?, ?, ?)').join(', ')}`;

/**
 * The statements that append `changes` of a write in `tenantId`, to run in that write's
 * transaction: multi-row INSERTs of 2^k rows (13 changes: 8, 4 and 1), so that a few SQL texts
 * serve every write and each stays prepared.
 */
export function appendPendingInsights(tenantId: string, changes: readonly InsightChange[]): SqlStatement[] {
  const statements: SqlStatement[] = [];
  let next = 0;
  for (let size = 1 << 10; size >= 1; size >>= 1) {
    while (changes.length - next >= size) {
      const rows = changes.slice(next, (next += size));
      statements.push({ sql: appendRows(size), values: rows.flatMap((change) => [tenantId, Number(change.ctaId), countsText(change)]) });
    }
  }
  return statements;
}

/**
 * What a write of `state` over the document of `baseline` (taken before the merge changed it)
 * appends to the insights, as statements to run in that write's transaction: none when no count changes.
 */
export const insightStatements = (tenantId: string, baseline: InsightBaseline, state: UserState): SqlStatement[] =>
  appendPendingInsights(tenantId, insightChanges(baseline, state));

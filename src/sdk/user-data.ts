import type { EntityManager } from 'typeorm';
import { writeHotRow } from '../database/hot-rows';
import { forUpdate } from '../database/row-lock';
import { insightBaseline, insightChanges, marksHoldAnything } from '../insights/insight-changes';
import { addToFolded } from '../insights/insight-folded';
import { addToPending } from '../insights/insight-pending';
import type { CtaResetAt, StateMachine } from './snapshot-request';
import { parseRecentActions } from './recent-actions';
import { emptyUserState, holdsNothing, parseUserState, serializeUserState } from './user-state';
import { UserStateEntity } from './user-state.entity';

/**
 * A user's stored SDK state for their data export and erase (docs/decisions/0017-user-data-export-and-erase.md),
 * on the caller's transaction.
 */

/** One CTA's stored state, in the launch's shape: machines by key (contexts included), resetAt, actionDoneAt. */
export interface ExportedCtaState {
  ctaId: string;
  activeStateMachines: Record<string, StateMachine>;
  resetAt: number[];
  actionDoneAt: number[];
}

/** One behaviour tag's stored lists. */
export interface ExportedTagState {
  behaviourTagName: string;
  activeCtas: string[];
  ctasResetAt: CtaResetAt[];
}

/** One of the user's recent actions, which the exposure cap counts (recent-actions.ts). */
export interface ExportedAction {
  ctaId: string;
  at: number;
}

export interface ExportedUserState {
  ctas: ExportedCtaState[];
  behaviourTags: ExportedTagState[];
  /** Newest first; kept after a CTA's state ends. */
  recentActions: ExportedAction[];
}

/** What an erased user's row holds, and what a user whose CTAs all ended holds too: nothing. */
const EMPTY_DOCUMENT = serializeUserState(emptyUserState());

const byNumericValue = (a: string, b: string): number => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0);

/**
 * Everything stored for the user, CTAs by id and tags by name: the whole document, including what
 * the next launch would prune (state of a CTA that has ended, expired machines) — it is held until then.
 */
export async function exportedUserState(manager: EntityManager, tenantId: string, userId: string): Promise<ExportedUserState> {
  const row = await manager.findOne(UserStateEntity, { select: { state: true, recentActions: true }, where: { tenantId, userId } });
  const state = row ? parseUserState(row.state) : emptyUserState();
  const recorded = parseRecentActions(row?.recentActions ?? null);
  const recentActions: ExportedAction[] = [];
  for (let index = 0; index < recorded.length; index += 2) recentActions.push({ ctaId: String(recorded[index + 1]), at: recorded[index] });
  return {
    ctas: [...state.ctas]
      .sort(([a], [b]) => byNumericValue(a, b))
      .map(([ctaId, cta]) => ({
        ctaId,
        // fromEntries defines properties: a machine key such as `__proto__` stays a key.
        activeStateMachines: Object.fromEntries(cta.activeStateMachines),
        resetAt: cta.resetAt,
        actionDoneAt: cta.actionDoneAt,
      })),
    behaviourTags: [...state.tags]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([behaviourTagName, tag]) => ({ behaviourTagName, activeCtas: tag.activeCtas, ctasResetAt: tag.ctasResetAt })),
    recentActions,
  };
}

/**
 * Empties the user's stored state; answers whether it held anything. The row stays, empty, with its
 * version bumped, rather than being deleted: a merge or launch that read the state before the erase
 * writes with `version = <what it read>` (or, having found no row, inserts one) and so loses to the
 * erase, reads the empty document and merges only its own snapshots onto it. A deleted row would let
 * such a writer's insert, or a new row counting up to the same version, bring the old state back.
 *
 * The insights keep their counts and lose the user's machines (docs/decisions/0018-campaign-insights.md):
 * the erase counts the emptied document like any write of it, adds the user's pending counts to the
 * folded rows at once, and clears them and the marks, so the row holds nothing of the user but its key.
 */
export async function eraseUserState(manager: EntityManager, tenantId: string, userId: string, now: number): Promise<boolean> {
  // Locked (MySQL/MariaDB) so that the document counted is the one emptied. On Galera the user's deltas
  // through other nodes keep writing the row: read and written first, replicated as they run, so that
  // only a delta committed in between makes the erase run again, not one during the rest of it.
  const emptied = await writeHotRow(manager, async () => {
    const row = await forUpdate(
      manager.createQueryBuilder(UserStateEntity, 'row').where('row.tenantId = :tenantId AND row.userId = :userId', { tenantId, userId }),
    ).getOne();
    // The insights' marks and the recent actions outlive an emptied document (the entries counted of the user): they go too.
    // The document is parsed: one emptied before the launch index has none.
    if (!row || (holdsNothing(parseUserState(row.state)) && !marksHoldAnything(row.insightMarks) && row.recentActions === null)) {
      return null;
    }
    const { affected } = await manager
      .createQueryBuilder()
      .update(UserStateEntity)
      .set({
        state: EMPTY_DOCUMENT,
        version: () => 'version + 1',
        updatedAt: now,
        pendingInsights: null,
        pendingSince: null,
        insightMarks: null,
        recentActions: null,
      })
      .where('tenant_id = :tenantId AND user_id = :userId AND version = :version', { tenantId, userId, version: row.version })
      .execute();
    if (affected !== 1) {
      throw new Error("a user's state row changed under the erase's lock");
    }
    return row;
  });
  if (!emptied) {
    return false;
  }
  const { changes } = insightChanges(insightBaseline(parseUserState(emptied.state), emptied.insightMarks), emptyUserState(), () => false);
  const pending = addToPending(emptied.pendingInsights, changes);
  if (pending !== null) {
    await addToFolded(manager, [{ tenantId, pending }]);
  }
  return true;
}

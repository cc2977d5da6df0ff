import { EntityManager, In } from 'typeorm';
import { forUpdate } from '../database/row-lock';
import { CohortEntity } from './cohort.entity';
import { deleteMembers, deleteUserRows, rowsOfUser } from './member-rows';

/**
 * One user's static cohort memberships, for their data export and erase
 * (docs/decisions/0017-user-data-export-and-erase.md), on the caller's transaction.
 */

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The names of the static cohorts whose current member list holds the user, by name. */
export async function staticCohortsOf(manager: EntityManager, tenantId: string, userId: string): Promise<string[]> {
  const rows = await rowsOfUser(manager, tenantId, userId);
  if (rows.length === 0) {
    return [];
  }
  const cohorts = await manager.find(CohortEntity, {
    select: { id: true, name: true, generation: true },
    where: { tenantId, id: In([...new Set(rows.map((row) => row.cohortId))]) },
  });
  const held = new Set(rows.map((row) => `${row.cohortId}:${row.generation}`));
  return cohorts
    .filter((cohort) => held.has(`${Number(cohort.id)}:${cohort.generation}`))
    .map((cohort) => cohort.name)
    .sort(byName);
}

/**
 * Removes the user from the tenant's static cohorts: from each current list (the member count
 * follows) and from the lists a replace left behind and has not purged yet. An upload still being
 * staged is the operator's new list and is left to them. Each cohort's row is locked first, as
 * member changes lock it, so they apply one at a time and the count stays exact. Answers how many
 * current lists held the user.
 */
export async function eraseMemberships(manager: EntityManager, tenantId: string, userId: string): Promise<number> {
  const cohortIds = [...new Set((await rowsOfUser(manager, tenantId, userId)).map((row) => row.cohortId))].sort((a, b) => a - b);
  let erased = 0;
  for (const cohortId of cohortIds) {
    const cohort = await forUpdate(
      manager
        .createQueryBuilder(CohortEntity, 'cohort')
        .where('cohort.tenantId = :tenantId AND cohort.id = :cohortId', { tenantId, cohortId }),
    ).getOne();
    if (!cohort) {
      // Deleted, its rows not purged yet.
      await deleteUserRows(manager, tenantId, cohortId, userId);
      continue;
    }
    const removed = await deleteMembers(manager, { tenantId, cohortId, generation: cohort.generation }, [userId]);
    await deleteUserRows(manager, tenantId, cohortId, userId, cohort.generation);
    if (removed > 0) {
      await manager.update(CohortEntity, { tenantId, id: cohortId }, { memberCount: cohort.memberCount - removed });
      erased++;
    }
  }
  return erased;
}

import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectOrchestrationDataSource } from '../database/orchestration-data-source';
import { ReadBatcher } from '../common/read-batcher';
import { createDriverReads, DriverReads, paddedToPowerOfTwo } from '../database/driver-reads';

interface PendingRead {
  userId: string;
  cohortIds: readonly number[];
  resolve(cohortIds: Set<number>): void;
  reject(error: unknown): void;
}

/**
 * Members of the current generation only: a replace switches the generation in one UPDATE.
 * One index range per user (a user's memberships are adjacent in `ix_cohort_members_tenant_user`),
 * the cohorts filtered on the way (`cohort_id + 0` keeps that list out of the index lookup): with
 * `cohort_id IN (…)` in the lookup, both databases probe every (user, cohort) pair, and MariaDB's
 * optimizer dives into each of those ranges again on every execution (measured: 2–3 times the
 * database's CPU for 16 users and 10 cohorts).
 */
const selectMemberships = (users: number, cohorts: number): string =>
  'SELECT m.user_id, m.cohort_id FROM cohort_members m ' +
  'JOIN cohorts c ON c.id = m.cohort_id AND c.generation = m.generation ' +
  `WHERE m.tenant_id = ? AND m.user_id IN (${new Array(users).fill('?').join(', ')}) ` +
  `AND m.cohort_id + 0 IN (${new Array(cohorts).fill('?').join(', ')})`;

/**
 * Which of the static cohorts a launch needs the user is in (docs/decisions/0008-cohorts.md): one indexed
 * query, batched like the user state's reads (`ReadBatcher`), on the driver directly
 * (`DriverReads`): the launch's hot path.
 */
@Injectable()
export class CohortMembershipStore {
  private readonly reads = new ReadBatcher<PendingRead>((tenantId, reads) => this.readBatch(tenantId, reads));

  private readonly query: DriverReads;

  constructor(@InjectOrchestrationDataSource() dataSource: DataSource) {
    this.query = createDriverReads(dataSource);
  }

  /** The ids among `cohortIds` of the cohorts whose current members include `userId`. */
  cohortsOf(tenantId: string, userId: string, cohortIds: readonly number[]): Promise<Set<number>> {
    return new Promise((resolve, reject) => this.reads.add(tenantId, { userId, cohortIds, resolve, reject }));
  }

  private async readBatch(tenantId: string, reads: PendingRead[]): Promise<void> {
    const userIds = paddedToPowerOfTwo([...new Set(reads.map((read) => read.userId))]);
    const cohortIds = paddedToPowerOfTwo([...new Set(reads.flatMap((read) => read.cohortIds))]);
    const rows = await this.query(selectMemberships(userIds.length, cohortIds.length), [tenantId, ...userIds, ...cohortIds]);
    const byUser = new Map<string, Set<number>>();
    for (const [userId, cohortId] of rows as [string, number | string][]) {
      let ids = byUser.get(userId);
      if (!ids) byUser.set(userId, (ids = new Set()));
      ids.add(Number(cohortId));
    }
    for (const read of reads) {
      const ids = byUser.get(read.userId);
      read.resolve(ids ? new Set(read.cohortIds.filter((id) => ids.has(id))) : new Set());
    }
  }
}

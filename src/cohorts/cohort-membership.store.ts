import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectOrchestrationDataSource } from '../database/orchestration-data-source';
import { MAX_READ_BATCH } from '../sdk/user-state.store';

interface PendingRead {
  userId: string;
  cohortIds: readonly number[];
  resolve(cohortIds: Set<number>): void;
  reject(error: unknown): void;
}

/** Members of the current generation only: a replace switches the generation in one UPDATE. */
const selectMemberships = (users: number, cohorts: number): string =>
  'SELECT m.user_id AS user_id, m.cohort_id AS cohort_id FROM cohort_members m ' +
  'JOIN cohorts c ON c.id = m.cohort_id AND c.generation = m.generation ' +
  `WHERE m.tenant_id = ? AND m.user_id IN (${new Array(users).fill('?').join(', ')}) ` +
  `AND m.cohort_id IN (${new Array(cohorts).fill('?').join(', ')})`;

/**
 * Which of the static cohorts a launch needs the user is in (DESIGN §12): one indexed
 * query, batched like the user state's reads (see `UserStateStore`): the lookups of one
 * tenant issued in the same turn of the event loop go out as one query.
 */
@Injectable()
export class CohortMembershipStore {
  private pending = new Map<string, PendingRead[]>();

  constructor(@InjectOrchestrationDataSource() private readonly dataSource: DataSource) {}

  /** The ids among `cohortIds` of the cohorts whose current members include `userId`. */
  cohortsOf(tenantId: string, userId: string, cohortIds: readonly number[]): Promise<Set<number>> {
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) {
        setImmediate(() => this.flush());
      }
      let reads = this.pending.get(tenantId);
      if (!reads) this.pending.set(tenantId, (reads = []));
      reads.push({ userId, cohortIds, resolve, reject });
    });
  }

  private flush(): void {
    const pending = this.pending;
    this.pending = new Map();
    for (const [tenantId, reads] of pending) {
      for (let start = 0; start < reads.length; start += MAX_READ_BATCH) {
        void this.readBatch(tenantId, reads.slice(start, start + MAX_READ_BATCH));
      }
    }
  }

  private async readBatch(tenantId: string, reads: PendingRead[]): Promise<void> {
    try {
      const userIds = [...new Set(reads.map((read) => read.userId))];
      const cohortIds = [...new Set(reads.flatMap((read) => read.cohortIds))];
      const rows: { user_id: string; cohort_id: number | string }[] = await this.dataSource.query(
        selectMemberships(userIds.length, cohortIds.length),
        [tenantId, ...userIds, ...cohortIds],
      );
      const byUser = new Map<string, Set<number>>();
      for (const row of rows) {
        let ids = byUser.get(row.user_id);
        if (!ids) byUser.set(row.user_id, (ids = new Set()));
        ids.add(Number(row.cohort_id));
      }
      for (const read of reads) {
        const ids = byUser.get(read.userId);
        read.resolve(ids ? new Set(read.cohortIds.filter((id) => ids.has(id))) : new Set());
      }
    } catch (error) {
      reads.forEach((read) => read.reject(error));
    }
  }
}

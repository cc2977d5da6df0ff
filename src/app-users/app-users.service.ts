import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuditLog } from '../audit/audit-log.service';
import type { ChangeOrigin } from '../audit/audit.types';
import { CatalogueRevisionService } from '../catalogue/catalogue-revision.service';
import { eraseMemberships, staticCohortsOf } from '../cohorts/user-memberships';
import { Clock } from '../common/clock';
import { userIdParam } from '../common/user-id';
import { TestCtasService } from '../ctas/test-ctas.service';
import { catchUpWithCluster } from '../database/causal-reads';
import { InjectOrchestrationDataSource } from '../database/orchestration-data-source';
import { ConflictPatience, TransactionRunner } from '../database/transaction-runner';
import { eraseUserState, ExportedUserState, exportedUserState } from '../sdk/user-data';

/** Everything the service holds about one app user in one tenant. */
export interface AppUserData {
  userId: string;
  state: ExportedUserState;
  cohorts: string[];
  testCtas: number[];
  auditEntries: number[];
}

/** What an erase removed; all zero (and false) for a user with nothing stored. */
export interface ErasedCounts {
  state: boolean;
  cohorts: number;
  testCtas: number;
  auditEntries: number;
}

/**
 * An erase retries its conflicting writes this long before it answers 503: on Galera the user's own
 * deltas through another node make its transaction lose certification now and then, and an operator
 * (or a GDPR workflow) should not have to send it again (docs/decisions/0017-user-data-export-and-erase.md).
 */
export const ERASE_CONFLICT_PATIENCE: ConflictPatience = { retryForMs: 10_000, work: 'app user erase' };

/**
 * The entity id of an erase's audit entry: the hex SHA-256 of `tenant:userId`. Support can tell
 * whether a user was erased by computing it; the entry itself names nobody.
 */
export const erasedUserKey = (tenantId: string, userId: string): string =>
  createHash('sha256').update(`${tenantId}:${userId}`).digest('hex');

/**
 * An app user's data (docs/decisions/0017-user-data-export-and-erase.md): what each feature holds
 * about them, read and erased through the functions those features export, in one transaction.
 * Both first let this database node catch up with the cluster, so an erase reaches every write
 * acknowledged before it, whichever instance or node took it.
 */
@Injectable()
export class AppUsersService {
  constructor(
    @InjectOrchestrationDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly catalogue: CatalogueRevisionService,
    private readonly testCtas: TestCtasService,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
  ) {}

  async export(tenantId: string, rawUserId: string): Promise<AppUserData> {
    const userId = userIdParam(rawUserId);
    await catchUpWithCluster(this.dataSource);
    // One transaction: one consistent picture of the four features.
    return this.transactions.run(async (manager) => ({
      userId,
      state: await exportedUserState(manager, tenantId, userId),
      cohorts: await staticCohortsOf(manager, tenantId, userId),
      testCtas: await this.testCtas.testCtasOf(manager, tenantId, userId),
      auditEntries: await this.audit.entriesNaming(manager, tenantId, userId),
    }));
  }

  /**
   * Erases the user's data and records the erase. The test CTA lists are part of the SDK catalogue,
   * hence a catalogue write (the tenant's revision is bumped). The state goes last: its row is the
   * one devices write, and its lock is held until the commit, so the window in which a delta through
   * another Galera node makes the erase lose certification is short; such losses run it again
   * (ERASE_CONFLICT_PATIENCE). Each count is of rows this transaction changed, so two erases of one
   * user at once answer the counts and zeros.
   */
  async erase(tenantId: string, rawUserId: string, origin: ChangeOrigin): Promise<ErasedCounts> {
    const userId = userIdParam(rawUserId);
    await catchUpWithCluster(this.dataSource);
    return this.catalogue.write(
      tenantId,
      async (manager) => {
        const cohorts = await eraseMemberships(manager, tenantId, userId);
        const testCtas = await this.testCtas.removeUser(manager, tenantId, userId);
        const auditEntries = await this.audit.eraseUserId(manager, tenantId, userId);
        const state = await eraseUserState(manager, tenantId, userId, this.clock.now());
        const counts: ErasedCounts = { state, cohorts, testCtas, auditEntries };
        await this.audit.record(manager, origin, [
          { tenantId, entityType: 'appUser', entityId: erasedUserKey(tenantId, userId), action: 'erase', before: null, after: counts },
        ]);
        return counts;
      },
      ERASE_CONFLICT_PATIENCE,
    );
  }
}

import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { Clock } from '../common/clock';
import { causalReadPrefix } from '../database/causal-reads';
import { InjectOrchestrationDataSource } from '../database/orchestration-data-source';
import { ConflictPatience, TransactionRunner } from '../database/transaction-runner';
import { CatalogueRevisionEntity } from './catalogue-revision.entity';

type CatalogueListener = (tenantId: string) => void;

/**
 * Owns the per-tenant catalogue revision (docs/decisions/0007-catalogue-cache-and-periodic-jobs.md). Every admin write that
 * changes what the SDK launch serves runs through `write`, which bumps the
 * revision in the same transaction (other instances see it on revalidation)
 * and, once committed, tells this instance's listeners at once.
 */
@Injectable()
export class CatalogueRevisionService {
  private readonly listeners = new Set<CatalogueListener>();

  constructor(
    @InjectOrchestrationDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  /** Runs `work` in a transaction that also bumps the tenant's revision; `patience` as `TransactionRunner.run`'s. */
  async write<T>(tenantId: string, work: (manager: EntityManager) => Promise<T>, patience?: ConflictPatience): Promise<T> {
    const result = await this.transactions.run(async (manager) => {
      const outcome = await work(manager);
      await this.bump(manager, tenantId);
      return outcome;
    }, patience);
    this.listeners.forEach((listener) => listener(tenantId));
    return result;
  }

  /**
   * Runs `work` (a periodic job's batch over several tenants) in a transaction that
   * also bumps the revision of each of `tenantIds`: one statement for all of them.
   */
  async writeMany<T>(tenantIds: readonly string[], work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const tenants = [...new Set(tenantIds)].sort();
    const result = await this.transactions.run(async (manager) => {
      const outcome = await work(manager);
      const { affected } = await manager
        .createQueryBuilder()
        .update(CatalogueRevisionEntity)
        .set({ revision: () => 'revision + 1', updatedAt: this.clock.now() })
        .where('tenant_id IN (:...tenants)', { tenants })
        .execute();
      if ((affected ?? 0) < tenants.length) {
        // Some tenant without a revision row yet (rows written by hand): bumped one by one.
        const existing = await manager.find(CatalogueRevisionEntity, { select: { tenantId: true }, where: { tenantId: In(tenants) } });
        const known = new Set(existing.map((row) => row.tenantId));
        for (const tenantId of tenants.filter((tenant) => !known.has(tenant))) {
          await this.bump(manager, tenantId);
        }
      }
      return outcome;
    });
    tenants.forEach((tenantId) => this.listeners.forEach((listener) => listener(tenantId)));
    return result;
  }

  /**
   * The tenant's current revision; 0 before its first write. Causal: it reflects every write
   * committed before the read started, whichever instance or cluster node made it.
   */
  async current(tenantId: string): Promise<number> {
    const prefix = await causalReadPrefix(this.dataSource);
    const [row] = (await this.dataSource.query(`${prefix}SELECT revision FROM catalogue_revisions WHERE tenant_id = ?`, [tenantId])) as {
      revision: number | string;
    }[];
    return row ? Number(row.revision) : 0;
  }

  /**
   * The tenants that have a catalogue (a revision row: written with a tenant's first admin write,
   * never deleted), unless there are still `knownCount` of them: then `tenantIds` is null and
   * nothing but the count is read. One causal statement, whatever the number of tenants.
   */
  async tenantsUnlessCount(knownCount: number): Promise<{ count: number; tenantIds: string[] | null }> {
    const prefix = await causalReadPrefix(this.dataSource);
    // The LEFT JOIN lists every row only when the count differs; otherwise it answers one row of NULL.
    const rows = (await this.dataSource.query(
      `${prefix}SELECT counted.tenants, listed.tenant_id FROM (SELECT COUNT(*) AS tenants FROM catalogue_revisions) counted ` +
        'LEFT JOIN catalogue_revisions listed ON counted.tenants <> ?',
      [knownCount],
    )) as { tenants: number | string; tenant_id: string | null }[];
    const count = Number(rows[0].tenants);
    return { count, tenantIds: count === knownCount ? null : rows.flatMap((row) => (row.tenant_id === null ? [] : [row.tenant_id])) };
  }

  /** Called after each committed write on this instance. */
  onChange(listener: CatalogueListener): void {
    this.listeners.add(listener);
  }

  private async bump(manager: EntityManager, tenantId: string): Promise<void> {
    const now = this.clock.now();
    const increment = () =>
      manager
        .createQueryBuilder()
        .update(CatalogueRevisionEntity)
        .set({ revision: () => 'revision + 1', updatedAt: now })
        .where('tenant_id = :tenantId', { tenantId })
        .execute();
    // The UPDATE comes first and alone: it takes the row's exclusive lock at once, so concurrent
    // writers of a tenant queue on it. (An INSERT IGNORE first took a shared lock on the existing
    // row, and two writers each holding one and wanting the exclusive lock deadlocked on MariaDB.)
    if ((await increment()).affected) {
      return;
    }
    // The tenant's first write; a racing first write may create the row first, hence the ignore.
    await manager
      .createQueryBuilder()
      .insert()
      .into(CatalogueRevisionEntity)
      .values({ tenantId, revision: 0, updatedAt: now })
      .orIgnore()
      .execute();
    await increment();
  }
}

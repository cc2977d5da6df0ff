import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { conflictingWrites } from '../common/domain-error';
import { KeyedSerializer } from '../common/keyed-serializer';
import { isDeadlockError } from './driver-error';
import { InjectOrchestrationDataSource } from './orchestration-data-source';

/** How often a deadlock victim runs again before the caller is told to retry later (503). */
const DEADLOCK_ATTEMPTS = 5;
/** Up to this many milliseconds times the attempt number, at random, so the retries do not collide again. */
const DEADLOCK_BACKOFF_MS = 10;

/**
 * Runs a unit of work in one transaction. Every write of the service goes
 * through here.
 *
 * On SQLite, TypeORM shares one better-sqlite3 connection between all requests:
 * two transactions open at once would nest (the second becomes a savepoint of
 * the first) and commit or roll back together. So on SQLite transactions run
 * one at a time, in arrival order; on MySQL each gets its own pooled connection.
 *
 * On MySQL/MariaDB, concurrent upserts can deadlock on InnoDB's gap locks; the
 * server rolls the victim back whole, so running `work` again is safe (it must
 * only touch the database through `manager`). On a Galera cluster a transaction
 * that loses certification to another node's write is reported as a deadlock
 * too, and runs again the same way (docs/decisions/0011-scale-out-on-galera.md).
 */
@Injectable()
export class TransactionRunner {
  private readonly sqliteQueue: KeyedSerializer | null;

  constructor(@InjectOrchestrationDataSource() private readonly dataSource: DataSource) {
    this.sqliteQueue = dataSource.options.type === 'better-sqlite3' ? new KeyedSerializer() : null;
  }

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const transaction = () => this.dataSource.transaction(work);
    return this.sqliteQueue ? this.sqliteQueue.run('sqlite', transaction) : this.retryingDeadlocks(transaction);
  }

  private async retryingDeadlocks<T>(transaction: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await transaction();
      } catch (error) {
        if (!isDeadlockError(error)) {
          throw error;
        }
        if (attempt >= DEADLOCK_ATTEMPTS) {
          // Contention, not a fault: a retryable 503 rather than a 500.
          throw conflictingWrites();
        }
        await sleep(Math.random() * DEADLOCK_BACKOFF_MS * attempt);
      }
    }
  }
}

import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable, Logger } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { conflictingWrites } from '../common/domain-error';
import { KeyedSerializer } from '../common/keyed-serializer';
import { isDeadlockError } from './driver-error';
import { InjectOrchestrationDataSource } from './orchestration-data-source';

/** How often a deadlock victim runs again before the caller is told to retry later (503). */
const DEADLOCK_ATTEMPTS = 5;
/** Up to this many milliseconds times the attempt number, at random, so the retries do not collide again. */
const DEADLOCK_BACKOFF_MS = 10;
/** A patient run's first pause is up to this many ms, at random; each later one up to twice as long… */
const PATIENT_FIRST_PAUSE_MS = 20;
/** …but never more than this. */
const PATIENT_MAX_PAUSE_MS = 500;

/**
 * How a unit of work that must not fail on contention treats conflicting writes: instead of the
 * few quick retries every transaction gets, it runs again, with growing random pauses, until
 * `retryForMs` have passed since its first attempt; only then is the caller told to retry later.
 * A run that met conflicts writes one warn line naming `work` — expected on Galera, never an error.
 */
export interface ConflictPatience {
  retryForMs: number;
  work: string;
}

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
 * too, and runs again the same way (docs/decisions/0011-scale-out-on-galera.md):
 * a few quick times, or for as long as the caller's `ConflictPatience` says.
 */
@Injectable()
export class TransactionRunner {
  private readonly logger = new Logger(TransactionRunner.name);
  private readonly sqliteQueue: KeyedSerializer | null;

  constructor(@InjectOrchestrationDataSource() private readonly dataSource: DataSource) {
    this.sqliteQueue = dataSource.options.type === 'better-sqlite3' ? new KeyedSerializer() : null;
  }

  run<T>(work: (manager: EntityManager) => Promise<T>, patience?: ConflictPatience): Promise<T> {
    const transaction = () => this.dataSource.transaction(work);
    return this.sqliteQueue ? this.sqliteQueue.run('sqlite', transaction) : this.retryingConflicts(transaction, patience);
  }

  private async retryingConflicts<T>(transaction: () => Promise<T>, patience: ConflictPatience | undefined): Promise<T> {
    const startedAt = performance.now();
    const waitedMs = () => Math.round(performance.now() - startedAt);
    for (let conflicts = 0; ;) {
      try {
        const result = await transaction();
        if (patience && conflicts > 0) {
          this.logger.warn({ work: patience.work, conflicts, waitedMs: waitedMs() }, 'conflicting writes retried, then committed');
        }
        return result;
      } catch (error) {
        if (!isDeadlockError(error)) {
          throw error;
        }
        conflicts++;
        const pause = patience ? patientPause(conflicts, patience.retryForMs - waitedMs()) : quickPause(conflicts);
        if (pause === null) {
          if (patience) {
            this.logger.warn(
              { work: patience.work, conflicts, waitedMs: waitedMs() },
              'conflicting writes retried until the limit, answered 503',
            );
          }
          // Contention, not a fault: a retryable 503 rather than a 500.
          throw conflictingWrites();
        }
        await sleep(pause);
      }
    }
  }
}

/** The pause after the `conflicts`-th conflict of a run without patience, or null once it has had DEADLOCK_ATTEMPTS. */
const quickPause = (conflicts: number): number | null =>
  conflicts >= DEADLOCK_ATTEMPTS ? null : Math.random() * DEADLOCK_BACKOFF_MS * conflicts;

/** The pause after the `conflicts`-th conflict of a patient run with `leftMs` of its time left, or null once none is. */
const patientPause = (conflicts: number, leftMs: number): number | null =>
  leftMs <= 0 ? null : Math.min(leftMs, Math.random() * Math.min(PATIENT_FIRST_PAUSE_MS * 2 ** (conflicts - 1), PATIENT_MAX_PAUSE_MS));

import { Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { KeyedSerializer } from '../sdk/keyed-serializer';
import { InjectOrchestrationDataSource } from './orchestration-data-source';

/**
 * Runs a unit of work in one transaction. Every write of the service goes
 * through here.
 *
 * On SQLite, TypeORM shares one better-sqlite3 connection between all requests:
 * two transactions open at once would nest (the second becomes a savepoint of
 * the first) and commit or roll back together. So on SQLite transactions run
 * one at a time, in arrival order; on MySQL each gets its own pooled connection.
 */
@Injectable()
export class TransactionRunner {
  private readonly sqliteQueue: KeyedSerializer | null;

  constructor(@InjectOrchestrationDataSource() private readonly dataSource: DataSource) {
    this.sqliteQueue = dataSource.options.type === 'better-sqlite3' ? new KeyedSerializer() : null;
  }

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const transaction = () => this.dataSource.transaction(work);
    return this.sqliteQueue ? this.sqliteQueue.run('sqlite', transaction) : transaction();
  }
}

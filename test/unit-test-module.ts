import type { Type } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AuditEntryEntity } from '../src/audit/audit-entry.entity';
import { CatalogueRevisionService } from '../src/catalogue/catalogue-revision.service';
import { Clock } from '../src/common/clock';
import { DomainError } from '../src/common/domain-error';
import { ORCHESTRATION_DATA_SOURCE } from '../src/database/orchestration-data-source';
import type { CtaStatus } from '../src/cta-lifecycle/cta-statuses';
import { CtaEntity } from '../src/ctas/cta.entity';
import { OrchestrationCoreModule } from '../src/orchestration-core.module';
import { type CtaOrchestrationOptions, ORCHESTRATION_SETTINGS, resolveSettings } from '../src/orchestration-options';
import { ORCHESTRATION_ENTITIES, ORCHESTRATION_MIGRATIONS } from '../src/orchestration-schema';

/** A clock the spec sets: services read `now` from it. */
export class SpecClock extends Clock {
  constructor(public at = Date.UTC(2027, 0, 1)) {
    super();
  }
  override now(): number {
    return this.at;
  }
}

/** What a unit spec works with: the feature modules' services, their database and the clock. */
export interface UnitTestModule {
  moduleRef: TestingModule;
  dataSource: DataSource;
  clock: SpecClock;
  get<T>(type: Type<T>): T;
  close(): Promise<void>;
  /** Every audit entry of every tenant, oldest first, as stored. */
  auditEntries(): Promise<AuditEntryEntity[]>;
  /** The tenant's catalogue revision (0 before its first catalogue write). */
  catalogueRevision(tenantId: string): Promise<number>;
  /** Puts a CTA in a status directly, as if its lifecycle had got it there (`CtaStatusService` has its own spec). */
  setCtaStatus(id: number, status: CtaStatus, fields?: Partial<Pick<CtaEntity, 'startTime' | 'endTime'>>): Promise<void>;
}

/**
 * Feature `modules` as the service wires them (the global core, its ports and the settings of `options`), over
 * a fresh in-memory SQLite database with the project's migrations: a spec reaches a service the way the app does,
 * whatever its constructor asks for, and checks what it really wrote. Lifecycle hooks do not run (no periodic jobs).
 */
export async function unitTestModule(modules: Type[], options: CtaOrchestrationOptions = {}): Promise<UnitTestModule> {
  const clock = new SpecClock();
  const settings = { provide: ORCHESTRATION_SETTINGS, useValue: resolveSettings({ schedulerIntervalMs: 0, ...options }) };
  const moduleRef = await Test.createTestingModule({
    imports: [
      TypeOrmModule.forRoot({
        type: 'better-sqlite3',
        database: ':memory:',
        entities: ORCHESTRATION_ENTITIES,
        migrations: ORCHESTRATION_MIGRATIONS,
        migrationsRun: true,
        logging: false,
      }),
      OrchestrationCoreModule.forSettings(undefined, [settings]),
      ...modules,
    ],
  })
    .overrideProvider(Clock)
    .useValue(clock)
    .compile();
  return {
    moduleRef,
    dataSource: moduleRef.get<DataSource>(ORCHESTRATION_DATA_SOURCE),
    clock,
    get: (type) => moduleRef.get(type, { strict: false }),
    close: () => moduleRef.close(),
    auditEntries: () => moduleRef.get<DataSource>(ORCHESTRATION_DATA_SOURCE).manager.find(AuditEntryEntity, { order: { id: 'ASC' } }),
    catalogueRevision: (tenantId) => moduleRef.get(CatalogueRevisionService, { strict: false }).current(tenantId),
    setCtaStatus: async (id, status, fields = {}) => {
      await moduleRef.get<DataSource>(ORCHESTRATION_DATA_SOURCE).manager.update(CtaEntity, { id }, { status, ...fields });
    },
  };
}

/** The domain error `work` fails with, as its code and message (a spec fails if it succeeds or throws anything else). */
export async function refusal(work: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await work.then(
    () => new Error('expected a refusal, but the work succeeded'),
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof DomainError)) {
    throw error;
  }
  return { code: error.code, message: error.message };
}

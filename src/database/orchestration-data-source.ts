import { Inject, Provider } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';

/**
 * The DataSource the module works on: the host's named connection, or the default one.
 * The one way to the database: its `manager` for reads outside a transaction, and inside one
 * the `EntityManager` that `TransactionRunner.run` hands over (helpers that read in either take a `manager`).
 */
export const ORCHESTRATION_DATA_SOURCE = Symbol('ORCHESTRATION_DATA_SOURCE');

export const InjectOrchestrationDataSource = (): ParameterDecorator => Inject(ORCHESTRATION_DATA_SOURCE);

export const orchestrationDataSourceProvider = (connectionName?: string): Provider => ({
  provide: ORCHESTRATION_DATA_SOURCE,
  useExisting: getDataSourceToken(connectionName),
});

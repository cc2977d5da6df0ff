import { Inject, Provider } from '@nestjs/common';
import { getDataSourceToken, getRepositoryToken } from '@nestjs/typeorm';
import type { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';

/** The DataSource the module works on: the host's named connection, or the default one. */
export const ORCHESTRATION_DATA_SOURCE = Symbol('ORCHESTRATION_DATA_SOURCE');

export const InjectOrchestrationDataSource = (): ParameterDecorator => Inject(ORCHESTRATION_DATA_SOURCE);

export const orchestrationDataSourceProvider = (connectionName?: string): Provider => ({
  provide: ORCHESTRATION_DATA_SOURCE,
  useExisting: getDataSourceToken(connectionName),
});

/**
 * Repositories on the module's DataSource under the usual `@InjectRepository(Entity)`
 * tokens, scoped to the feature module that lists them, whatever connection the host chose.
 */
export function orchestrationRepositories(...entities: EntityTarget<ObjectLiteral>[]): Provider[] {
  return entities.map((entity) => ({
    provide: getRepositoryToken(entity as Parameters<typeof getRepositoryToken>[0]),
    useFactory: (dataSource: DataSource) => dataSource.getRepository(entity),
    inject: [ORCHESTRATION_DATA_SOURCE],
  }));
}

import { ColumnType, DataSource, DataSourceOptions } from 'typeorm';
import { dataSourceOptions } from '../src/orchestration-schema';
import { MigrationColumns } from '../src/database/migration-columns';
import { createDatabase, eachDatabase } from './harness';

/**
 * The entities say what the migrations built (columns, types, lengths, nullability, keys,
 * indexes): on a migrated database, TypeORM finds nothing to change to sync the entities.
 */
eachDatabase('Entities match the migrations', (database) => {
  let url: string;
  let drop: () => Promise<void>;
  const dataSources: DataSource[] = [];
  const open = async (options: DataSourceOptions): Promise<DataSource> => {
    const dataSource = new DataSource(options);
    dataSources.push(dataSource);
    return dataSource.initialize();
  };

  beforeAll(async () => {
    ({ url, drop } = await createDatabase(database));
  });

  afterAll(async () => {
    await Promise.all(dataSources.filter((dataSource) => dataSource.isInitialized).map((dataSource) => dataSource.destroy()));
    await drop();
  });

  it('leaves nothing for a schema sync to do after the migrations ran', async () => {
    const migrated = await open(dataSourceOptions(url));
    // One entity serves both databases, so it names one type where the migrations pick each
    // database's own (an auto-increment id, client text): compare with what they picked.
    const column = new MigrationColumns(migrated.createQueryRunner());
    // TypeORM reads a MariaDB column's defaults right only with its `mariadb` driver.
    const mariadb = database === 'mysql' && /mariadb/i.test((await migrated.query<{ v: string }[]>('SELECT VERSION() AS v'))[0].v);
    const compared = mariadb ? await open({ ...dataSourceOptions(url, false), type: 'mariadb' } as DataSourceOptions) : migrated;
    for (const entityColumn of compared.entityMetadatas.flatMap((entity) => entity.columns)) {
      if (entityColumn.isGenerated) {
        entityColumn.type = column.id().type as ColumnType;
      } else if (entityColumn.type === 'text') {
        entityColumn.type = column.text(entityColumn.databaseName).type as ColumnType;
      }
    }
    const sync = await compared.driver.createSchemaBuilder().log();
    expect(sync.upQueries.map((query) => query.query)).toEqual([]);
  });
});

import type { DataSource } from 'typeorm';
import { ORCHESTRATION_DATA_SOURCE } from '../src/database/orchestration-data-source';
import type { TestApp } from './harness';

export const dataSourceOf = (api: TestApp): DataSource => api.app.get<DataSource>(ORCHESTRATION_DATA_SOURCE, { strict: false });

/**
 * Every row of every table of the schema, as sorted JSON lines by table: two
 * equal results mean nothing was inserted, updated or deleted in between.
 */
export async function databaseContents(api: TestApp): Promise<Record<string, string[]>> {
  const dataSource = dataSourceOf(api);
  const contents: Record<string, string[]> = {};
  for (const { tableName } of dataSource.entityMetadatas) {
    const rows: unknown[] = await dataSource.query(`SELECT * FROM ${dataSource.driver.escape(tableName)}`);
    contents[tableName] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return contents;
}

/** Rows by table. */
export async function rowCounts(api: TestApp): Promise<Record<string, number>> {
  const contents = await databaseContents(api);
  return Object.fromEntries(Object.entries(contents).map(([table, rows]) => [table, rows.length]));
}

import { createConnection } from 'mysql2/promise';

export const DEFAULT_TEST_MYSQL_URL = 'mysql://root@127.0.0.1:3306/test';

/**
 * Decides once per run whether the MySQL/MariaDB suites run: `TEST_MYSQL_URL`
 * (default the local MariaDB) when it answers. With `TEST_MYSQL_REQUIRED=true`
 * (CI) an unreachable server fails the run instead of skipping.
 */
export default async function globalSetup(): Promise<void> {
  const url = process.env.TEST_MYSQL_URL || DEFAULT_TEST_MYSQL_URL;
  try {
    const connection = await createConnection({ uri: url, connectTimeout: 3000 });
    await connection.end();
    process.env.TEST_MYSQL_URL_REACHABLE = url;
  } catch (error) {
    if (process.env.TEST_MYSQL_REQUIRED === 'true') {
      throw new Error(`MySQL/MariaDB at ${url} is required but unreachable: ${(error as Error).message}`);
    }
    console.warn(`\nMySQL/MariaDB at ${url} is unreachable: running the e2e suites on SQLite only.\n`);
  }
}

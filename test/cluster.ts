import { TEST_DATABASES } from './harness';

/**
 * The database servers that instances of a multi-instance suite connect to: with TEST_GALERA_URLS
 * (a comma list of cluster nodes, `npm run test:galera`) each instance its own node; else all of them
 * TEST_MYSQL_URL. SQLite is a file inside one process: there are no two instances to run, so these
 * suites are MariaDB (or Galera) only, and skipped without it.
 */
export const GALERA = (process.env.TEST_GALERA_URLS ?? '')
  .split(',')
  .map((url) => url.trim())
  .filter(Boolean);
export const SERVERS =
  GALERA.length > 0 ? GALERA : TEST_DATABASES.includes('mysql') ? [process.env.TEST_MYSQL_URL_REACHABLE as string] : [];
export const describeOnMysql = SERVERS.length > 0 ? describe : describe.skip;
/** What the suite runs on, for its title. */
export const CLUSTER_KIND = GALERA.length > 0 ? 'galera' : 'mysql';

/** The database of `databaseUrl`, reached through `server`. */
export function onServer(databaseUrl: string, server: string): string {
  const url = new URL(databaseUrl);
  const through = new URL(server);
  url.host = through.host;
  url.username = through.username;
  url.password = through.password;
  return url.toString();
}

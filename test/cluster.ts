import { runClockAfterExamples } from './fixtures';
import { createDatabase, TEST_DATABASES, TestApp } from './harness';

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

type Env = Record<string, string>;

/**
 * Two instances of the service for the suite, on one new database, each through its own server of
 * SERVERS (on Galera, its own node); `started` receives them before the first test. After the last
 * they are closed and the database dropped. Their clocks run after the API examples' times unless
 * `examplesClock` is false.
 */
export function twoInstancesPerSuite(
  envs: [Env, Env],
  started: (a: TestApp, b: TestApp) => void,
  { examplesClock = true }: { examplesClock?: boolean } = {},
): void {
  let instances: TestApp[] = [];
  let dropDatabase: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const { url, drop } = await createDatabase('mysql', SERVERS[0]);
    dropDatabase = drop;
    instances.push(await TestApp.join('mysql', url, envs[0]));
    instances.push(await TestApp.join('mysql', onServer(url, SERVERS[1] ?? SERVERS[0]), envs[1]));
    if (examplesClock) instances.forEach(runClockAfterExamples);
    started(instances[0], instances[1]);
  });
  afterAll(async () => {
    for (const instance of instances.reverse()) await instance.close();
    instances = [];
    await dropDatabase?.();
  });
}

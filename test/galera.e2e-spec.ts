import { randomBytes } from 'node:crypto';
import { createConnection } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { causalReadPrefix } from '../src/database/causal-reads';
import { dataSourceOptions } from '../src/orchestration-schema';
import { TransactionRunner } from '../src/database/transaction-runner';
import { createUserStateStore } from '../src/sdk/user-state.store';
import { TEST_DATABASES } from './harness';

/**
 * What a multi-primary cluster (docs/decisions/0011-scale-out-on-galera.md) asks of the database layer, below HTTP: one database
 * reached through two servers. With TEST_GALERA_URLS (`npm run test:galera`) they are two nodes of
 * the Galera cluster, where a write racing another node's write to the same row fails certification
 * and is reported as a deadlock; without it both connections go to the one MariaDB server, where
 * row locks decide. The results must be the same. (The HTTP-level races: multi-instance.e2e-spec.ts.)
 */
const GALERA = (process.env.TEST_GALERA_URLS ?? '')
  .split(',')
  .map((url) => url.trim())
  .filter(Boolean);
const SERVERS =
  GALERA.length >= 2 ? GALERA.slice(0, 2) : TEST_DATABASES.includes('mysql') ? Array(2).fill(process.env.TEST_MYSQL_URL_REACHABLE) : [];
const describeOnMysql = SERVERS.length > 0 ? describe : describe.skip;
const ROUNDS = 20;

describeOnMysql(`one database through two servers [${GALERA.length >= 2 ? 'galera' : 'mysql'}]`, () => {
  const name = `cta_test_${randomBytes(6).toString('hex')}`;
  const through = (server: string) => Object.assign(new URL(server), { pathname: `/${name}` }).toString();
  let sources: DataSource[] = [];

  beforeAll(async () => {
    const admin = await createConnection({ uri: SERVERS[0] });
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await admin.end();
    // The first applies the migrations (on Galera the cluster refuses a table without a primary key).
    sources = [await new DataSource(dataSourceOptions(through(SERVERS[0]))).initialize()];
    sources.push(await new DataSource(dataSourceOptions(through(SERVERS[1]), false)).initialize());
  });
  afterAll(async () => {
    await Promise.all(sources.map((source) => source.destroy()));
    const admin = await createConnection({ uri: SERVERS[0] });
    await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.end();
  });

  it('has a primary key on every table, and only InnoDB tables (certification needs both)', async () => {
    const tables: { name: string; engine: string; primaryKeyColumns: number | string }[] = await sources[0].query(
      `SELECT t.TABLE_NAME AS name, t.ENGINE AS engine,
              (SELECT COUNT(*) FROM information_schema.KEY_COLUMN_USAGE k
                WHERE k.TABLE_SCHEMA = t.TABLE_SCHEMA AND k.TABLE_NAME = t.TABLE_NAME AND k.CONSTRAINT_NAME = 'PRIMARY') AS primaryKeyColumns
         FROM information_schema.TABLES t WHERE t.TABLE_SCHEMA = ? ORDER BY t.TABLE_NAME`,
      [name],
    );
    expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(['ctas', 'sdk_user_states', 'catalogue_revisions']));
    expect(tables.filter((table) => table.engine !== 'InnoDB' || Number(table.primaryKeyColumns) === 0)).toEqual([]);
  });

  it("stores exactly one of two writes of a user's state at the same version through the two servers, and tells the other it lost (never an error)", async () => {
    const stores = sources.map((source) => createUserStateStore(source));
    const now = Date.now();
    expect(await stores[0].write('galera', '1', '{"round":0}', undefined, now)).toBe(true);
    let winner = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      // Through the last winner's server, which has its own write (another node may apply it a moment later).
      const version = (await stores[winner].read('galera', '1'))!.version;
      const outcomes = await Promise.all(
        stores.map((store, index) => store.write('galera', '1', `{"round":${round},"by":${index}}`, version, now)),
      );
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      winner = outcomes.indexOf(true);
      expect(await stores[winner].read('galera', '1')).toEqual({
        json: `{"round":${round},"by":${winner}}`,
        version: version + 1,
        // A write without insights counts or actions leaves the row's as they were (none here).
        pendingInsights: null,
        pendingSince: null,
        insightMarks: null,
        recentActions: null,
      });
    }
  });

  it('commits every one of concurrent transactions writing one row through the two servers (a lost certification runs again)', async () => {
    const runners = sources.map((source) => new TransactionRunner(source));
    await sources[0].query('INSERT INTO catalogue_revisions (tenant_id, revision, updated_at) VALUES (?, 0, 0)', ['galera']);
    const increments = Array.from({ length: 10 }, (_, index) =>
      runners[index % 2].run((manager) =>
        manager.query('UPDATE catalogue_revisions SET revision = revision + 1 WHERE tenant_id = ?', ['galera']),
      ),
    );
    await Promise.all(increments);
    // On Galera the read first waits until its node has applied everything committed before it (wsrep_sync_wait).
    for (const source of sources) {
      const select = `${await causalReadPrefix(source)}SELECT revision FROM catalogue_revisions WHERE tenant_id = ?`;
      expect(await source.query(select, ['galera'])).toEqual([{ revision: 10 }]);
    }
  });

  it('makes reads causal on a Galera node and leaves them plain on one server (the catalogue revision read)', async () => {
    const expected = GALERA.length >= 2 ? 'SET STATEMENT wsrep_sync_wait = 1 FOR ' : '';
    for (const source of sources) {
      expect(await causalReadPrefix(source)).toBe(expected);
    }
  });
});

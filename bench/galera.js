'use strict';
/**
 * `npm run bench:galera` (DESIGN §21): app launches and delta merges on one MariaDB server
 * versus the 3-node Galera cluster of scripts/galera.sh, in one run:
 *   - one server: one instance on the standalone MariaDB (BENCH_MYSQL_URL's server);
 *   - cluster, one instance: one instance on node 1 (what synchronous replication costs);
 *   - cluster, three instances: one instance per node, the same users spread over all three (a
 *     load balancer sends a user's requests anywhere, so merges of one user race across nodes).
 * The acknowledged merges are checked in the database afterwards (none may be lost).
 *
 *   GALERA_URLS       comma list of the nodes (scripts/galera.sh run sets it)
 *   BENCH_MYSQL_URL   the single server, default mysql://root@127.0.0.1:3306/cta_bench_galera (schema recreated)
 *   BENCH_DURATION_S  seconds per measurement, default 8
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const autocannon = require('autocannon');
const mysql = require('mysql2/promise');
const { openDatabase, seedTenant, storedMachineKeys } = require('./seed');
const { SMALL, MERGE_CONNECTIONS, LAUNCH_CONNECTIONS, startService, measure, launchOptions, mergeOptions, launchBytes } = require('./run');

const DURATION = Number(process.env.BENCH_DURATION_S || 8);
const SINGLE_URL = process.env.BENCH_MYSQL_URL || 'mysql://root@127.0.0.1:3306/cta_bench_galera';
const NODE_URLS = (process.env.GALERA_URLS || '')
  .split(',')
  .map((url) => url.trim())
  .filter(Boolean);
const SCHEMA = 'cta_bench_galera';

/** `url` with the database `SCHEMA`. */
const withSchema = (url) => Object.assign(new URL(url), { pathname: `/${SCHEMA}` }).toString();

async function onServer(serverUrl, statements) {
  const admin = await mysql.createConnection({ uri: Object.assign(new URL(serverUrl), { pathname: '/' }).toString() });
  for (const statement of statements) await admin.query(statement);
  await admin.end();
}
const dropSchema = (serverUrl) => onServer(serverUrl, [`DROP DATABASE IF EXISTS \`${SCHEMA}\``]);
const recreateSchema = (serverUrl) =>
  onServer(serverUrl, [`DROP DATABASE IF EXISTS \`${SCHEMA}\``, `CREATE DATABASE \`${SCHEMA}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`]);

/** Runs `optionsOf(base, index)` against every instance at once; answers one row with the summed throughput. */
async function measureSpread(name, bases, optionsOf) {
  if (bases.length === 1) return measure(name, { duration: DURATION, ...optionsOf(bases[0], 0) });
  const results = await Promise.all(bases.map((base, index) => autocannon({ duration: DURATION, ...optionsOf(base, index) })));
  const row = {
    name,
    connections: results.reduce((sum, result) => sum + result.connections, 0),
    requestsPerSecond: Math.round(results.reduce((sum, result) => sum + result.requests.average, 0)),
    // The slowest instance's percentiles: the latency a client of the cluster may get.
    p50Ms: Math.max(...results.map((result) => result.latency.p50)),
    p99Ms: Math.max(...results.map((result) => result.latency.p99)),
    non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
    errors: results.reduce((sum, result) => sum + result.errors + result.timeouts, 0),
  };
  console.log(`  ${name}: ${row.requestsPerSecond} req/s, p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms${row.non2xx || row.errors ? `, ${row.non2xx} non-2xx, ${row.errors} errors` : ''}`);
  return row;
}

/** One configuration: a fresh schema through `serverUrls[0]`, one instance per URL, launch then merge. */
async function benchConfiguration(label, serverUrls) {
  console.log(`\n${label}: seeding`);
  await recreateSchema(serverUrls[0]);
  const urls = serverUrls.map(withSchema);
  // The first instance applies the migrations before the others start.
  const services = [await startService(urls[0])];
  const db = await openDatabase(urls[0]);
  try {
    const [ctaId] = await seedTenant(db, { ...SMALL, now: Date.now() });
    for (const url of urls.slice(1)) services.push(await startService(url));
    const bases = services.map((service) => service.base);
    for (const base of bases) await launchBytes(base, SMALL.tenantId);
    const share = (connections) => Math.ceil(connections / bases.length);
    await measureSpread('warm-up', bases, (base) => ({ ...launchOptions(base, SMALL.users, SMALL.tenantId), connections: share(LAUNCH_CONNECTIONS), duration: 2 }));
    const launch = await measureSpread('launch (20 CTAs, 100 users)', bases, (base) => ({
      ...launchOptions(base, SMALL.users, SMALL.tenantId),
      connections: share(LAUNCH_CONNECTIONS),
    }));
    const acknowledged = new Set();
    const merge = await measureSpread('delta merge', bases, (base, index) => ({
      ...mergeOptions(base, ctaId, acknowledged, `i${index}`),
      connections: share(MERGE_CONNECTIONS),
    }));
    // Read through the first node: a certified write is applied there before the next read (wsrep_sync_wait=1 makes sure).
    await db.run('SET SESSION wsrep_sync_wait = 1').catch(() => undefined);
    const stored = await storedMachineKeys(db, SMALL.tenantId, ctaId);
    merge.acknowledged = acknowledged.size;
    merge.lostUpdates = [...acknowledged].filter((key) => !stored.has(key)).length;
    console.log(`  merges acknowledged ${acknowledged.size}, lost ${merge.lostUpdates}`);
    return { label, instances: bases.length, rows: { launch, merge } };
  } finally {
    await Promise.all(services.map((service) => service.stop()));
    await db.close();
  }
}

function printTable(configurations) {
  const [single] = configurations;
  const lines = ['| configuration | instances | scenario | connections | req/s | vs one server | p50 ms | p99 ms | non-2xx |', '|---|---|---|---|---|---|---|---|---|'];
  for (const configuration of configurations) {
    for (const [key, row] of Object.entries(configuration.rows)) {
      const ratio = Math.round((100 * row.requestsPerSecond) / single.rows[key].requestsPerSecond);
      const name = row.lostUpdates === undefined ? row.name : `${row.name} (${row.acknowledged} acknowledged, ${row.lostUpdates} lost)`;
      lines.push(
        `| ${configuration.label} | ${configuration.instances} | ${name} | ${row.connections} | ${row.requestsPerSecond} | ${ratio}% | ${row.p50Ms} | ${row.p99Ms} | ${row.non2xx + row.errors} |`,
      );
    }
  }
  return lines.join('\n');
}

async function main() {
  if (NODE_URLS.length < 2) throw new Error('GALERA_URLS must list the cluster nodes (run it with `npm run bench:galera`)');
  const configurations = [
    await benchConfiguration('one MariaDB server', [SINGLE_URL]),
    await benchConfiguration('Galera, 3 nodes', [NODE_URLS[0]]),
    await benchConfiguration('Galera, 3 nodes', NODE_URLS),
  ];
  await dropSchema(SINGLE_URL);
  await dropSchema(NODE_URLS[0]);
  const table = printTable(configurations);
  console.log(`\n${table}\n`);
  const failures = configurations.flatMap((configuration) =>
    Object.values(configuration.rows)
      .filter((row) => row.lostUpdates > 0 || row.non2xx > 0 || row.errors > 0)
      .map((row) => `${configuration.label} × ${configuration.instances}: ${row.name}`),
  );
  const output = { at: new Date().toISOString(), durationSeconds: DURATION, machine: { cpus: os.cpus().length, node: process.version }, configurations, table };
  fs.writeFileSync(path.join(__dirname, 'galera-results.json'), `${JSON.stringify(output, null, 2)}\n`);
  console.log('written to bench/galera-results.json');
  if (failures.length > 0) {
    console.error(`lost merges or failed requests in: ${failures.join('; ')}`);
    process.exit(1);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

'use strict';
/**
 * `npm run bench:galera` (docs/decisions/0011-scale-out-on-galera.md): app launches and delta merges on one MariaDB server
 * versus the 3-node Galera cluster of scripts/galera.sh, in one run:
 *   - one server: one instance on a MariaDB server without Galera, with the nodes' settings
 *     (GALERA_STANDALONE_URL, which `GALERA_STANDALONE=1 scripts/galera.sh run` sets; else
 *     BENCH_MYSQL_URL's server; the system MariaDB serves everyone's tests here, so it is no baseline);
 *   - cluster, one instance: one instance on node 1 (what synchronous replication costs);
 *   - cluster, three instances: one instance per node, the same users spread over all three (a
 *     load balancer sends a user's requests anywhere, so merges of one user race across nodes).
 * The acknowledged merges are checked in the database afterwards (none may be lost). The
 * throughput is over all rounds; the percentiles are the medians of the rounds'.
 *
 *   GALERA_URLS       comma list of the nodes (scripts/galera.sh run sets it)
 *   BENCH_MYSQL_URL   the single server instead (its schema cta_bench_galera is recreated)
 *   BENCH_ROUNDS      rounds, default 4: each round measures every configuration in turn, so a change
 *                     in the load of the (shared) machine affects them alike
 *   BENCH_ROUND_S     seconds per scenario and round, default 3
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const autocannon = require('autocannon');
const mysql = require('mysql2/promise');
const { openDatabase, seedTenant, storedMachineKeys } = require('./seed');
const { SMALL, MERGE_CONNECTIONS, LAUNCH_CONNECTIONS, startService, launchOptions, mergeOptions, launchBytes } = require('./run');

const ROUND_S = Number(process.env.BENCH_ROUND_S || 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 4);
const SINGLE_URL = process.env.BENCH_MYSQL_URL || process.env.GALERA_STANDALONE_URL || 'mysql://root@127.0.0.1:3306/test';
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
  onServer(serverUrl, [
    `DROP DATABASE IF EXISTS \`${SCHEMA}\``,
    `CREATE DATABASE \`${SCHEMA}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
  ]);

/** One configuration: a fresh schema through `serverUrls[0]`, seeded, and one instance per URL. */
async function startConfiguration(label, serverUrls) {
  await recreateSchema(serverUrls[0]);
  const urls = serverUrls.map(withSchema);
  // The first instance applies the migrations before the others start.
  const services = [await startService(urls[0])];
  const db = await openDatabase(urls[0]);
  const [ctaId] = await seedTenant(db, { ...SMALL, now: Date.now() });
  for (const url of urls.slice(1)) services.push(await startService(url));
  const bases = services.map((service) => service.base);
  for (const base of bases) await launchBytes(base, SMALL.tenantId);
  console.log(`  ${label}, ${bases.length} instance(s): ready`);
  return {
    label,
    instances: bases.length,
    bases,
    ctaId,
    db,
    acknowledged: new Set(),
    rounds: { launch: [], merge: [] },
    stop: async () => {
      await Promise.all(services.map((service) => service.stop()));
      await db.close();
    },
  };
}

/** Runs `optionsOf(base, index)` against every instance of `configuration` at once, for ROUND_S seconds. */
async function round(configuration, optionsOf) {
  const results = await Promise.all(configuration.bases.map((base, index) => autocannon({ ...optionsOf(base, index), duration: ROUND_S })));
  return {
    connections: results.reduce((sum, result) => sum + result.connections, 0),
    requests: results.reduce((sum, result) => sum + result.requests.total, 0),
    // The slowest instance's percentiles: the latency a client of the cluster may get.
    p50Ms: Math.max(...results.map((result) => result.latency.p50)),
    p99Ms: Math.max(...results.map((result) => result.latency.p99)),
    failed: results.reduce((sum, result) => sum + result.non2xx + result.errors + result.timeouts, 0),
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The rounds of one scenario as a row: throughput over all rounds, median percentiles. */
function rowOf(name, rounds) {
  return {
    name,
    connections: rounds[0].connections,
    requestsPerSecond: Math.round(rounds.reduce((sum, entry) => sum + entry.requests, 0) / (rounds.length * ROUND_S)),
    p50Ms: median(rounds.map((entry) => entry.p50Ms)),
    p99Ms: median(rounds.map((entry) => entry.p99Ms)),
    failed: rounds.reduce((sum, entry) => sum + entry.failed, 0),
  };
}

function printTable(configurations) {
  const [single] = configurations;
  const lines = [
    '| configuration | instances | scenario | connections | req/s | vs one server | p50 ms | p99 ms | failed |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const configuration of configurations) {
    for (const [key, row] of Object.entries(configuration.rows)) {
      const ratio = Math.round((100 * row.requestsPerSecond) / single.rows[key].requestsPerSecond);
      const name = row.lostUpdates === undefined ? row.name : `${row.name} (${row.acknowledged} acknowledged, ${row.lostUpdates} lost)`;
      lines.push(
        `| ${configuration.label} | ${configuration.instances} | ${name} | ${row.connections} | ${row.requestsPerSecond} | ${ratio}% | ${row.p50Ms} | ${row.p99Ms} | ${row.failed} |`,
      );
    }
  }
  return lines.join('\n');
}

async function main() {
  if (NODE_URLS.length < 2) throw new Error('GALERA_URLS must list the cluster nodes (run it with `npm run bench:galera`)');
  console.log('seeding');
  const configurations = [
    await startConfiguration('one MariaDB server', [SINGLE_URL]),
    await startConfiguration('Galera, 3 nodes', [NODE_URLS[0]]),
    await startConfiguration('Galera, 3 nodes', NODE_URLS),
  ];
  try {
    const share = (configuration, connections) => Math.ceil(connections / configuration.instances);
    const launch = (configuration) => (base) => ({
      ...launchOptions(base, SMALL.users, SMALL.tenantId),
      connections: share(configuration, LAUNCH_CONNECTIONS),
    });
    // Machine keys unique over all rounds and instances, so every acknowledged merge is checked.
    const merge = (configuration, roundIndex) => (base, index) => ({
      ...mergeOptions(base, configuration.ctaId, configuration.acknowledged, `r${roundIndex}i${index}`),
      connections: share(configuration, MERGE_CONNECTIONS),
    });
    for (const configuration of configurations) await round(configuration, launch(configuration)); // warm-up
    // Rounds alternate between the configurations, so a change in the machine's load hits all alike.
    for (let index = 1; index <= ROUNDS; index++) {
      for (const configuration of configurations) {
        configuration.rounds.launch.push(await round(configuration, launch(configuration)));
        configuration.rounds.merge.push(await round(configuration, merge(configuration, index)));
      }
      console.log(`  round ${index} of ${ROUNDS} done`);
    }
    for (const configuration of configurations) {
      // Read through the first node, after it has applied everything committed before (wsrep_sync_wait).
      await configuration.db.run('SET SESSION wsrep_sync_wait = 1').catch(() => undefined);
      const stored = await storedMachineKeys(configuration.db, SMALL.tenantId, configuration.ctaId);
      configuration.rows = {
        launch: rowOf('launch (20 CTAs, 100 users)', configuration.rounds.launch),
        merge: {
          ...rowOf('delta merge', configuration.rounds.merge),
          acknowledged: configuration.acknowledged.size,
          lostUpdates: [...configuration.acknowledged].filter((key) => !stored.has(key)).length,
        },
      };
    }
  } finally {
    for (const configuration of configurations) await configuration.stop();
    await dropSchema(SINGLE_URL);
    await dropSchema(NODE_URLS[0]);
  }
  const table = printTable(configurations);
  console.log(`\n${table}\n`);
  const failures = configurations.flatMap((configuration) =>
    Object.values(configuration.rows)
      .filter((row) => row.lostUpdates > 0 || row.failed > 0)
      .map((row) => `${configuration.label} × ${configuration.instances}: ${row.name}`),
  );
  const output = {
    at: new Date().toISOString(),
    roundSeconds: ROUND_S,
    rounds: ROUNDS,
    machine: { cpus: os.cpus().length, node: process.version, loadAverage: os.loadavg() },
    configurations: configurations.map(({ label, instances, rows }) => ({ label, instances, rows })),
    table,
  };
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

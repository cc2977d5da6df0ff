'use strict';
/**
 * Fair, bounded work per request (issue 27), on the built service and MariaDB; part of
 * `npm run bench`, or alone after `npm run build`: `node bench/fair-work.js`.
 *
 * - the worst body of every route against JSON.parse of its bytes (bench/worst-bodies.js);
 * - isolation: another tenant's launches alone and beside 4 abusive connections, twice: the worst
 *   deltas for one app user, for 4 app users, for 4 tenants, and 1 MB CTA creates of 4 tenants
 *   (bench/isolation.js);
 * - unknown tenants: the statements 40,000 launches for random tenant ids (and 8 s of deltas
 *   for random tenant ids) send MariaDB, counted by a proxy in front of it;
 * - the attack of issue 27: one delta of ~893 KB for a tenant with 1,000 live CTAs (every CTA
 *   with 60 `resetAt` entries), and one of 1,000 snapshots × 10 new machines; the time each
 *   takes, and /health probed meanwhile.
 *
 *   BENCH_MYSQL_URL   default mysql://root@127.0.0.1:3306/cta_bench (schema cta_bench_fair, the URL's name + `_fair`, recreated); "off" skips
 *   BENCH_FAIR_PARTS  the parts measured, of worst,isolation,unknown,attack (default all), e.g. `isolation`
 */
const fs = require('node:fs');
const path = require('node:path');
const { openDatabase, seedTenant, TAGS } = require('./seed');
const { startService: startBuiltService, mysqlReachable, recreateSchema, sleep, MYSQL_URL } = require('./service');
const autocannon = require('autocannon');
const { countingProxy } = require('./instances');
const { measureIsolation, sdkDelta, ABUSE_CONNECTIONS } = require('./isolation');
const { measureWorstBodies, worstSdkBodies, worstCtaCreate, lanePauseMs } = require('./worst-bodies');

const SDK_HEADERS = { 'content-type': 'application/json', api_version: '1' };
const DELTA_PATH = '/cta/state-machines/snapshot/delta/';
const WIDE = { tenantId: 'fair-wide', firstId: 1, extraCtas: 0, users: 1, liveCtas: 1000 };
/** Tenants like WIDE, one per abusive connection of the isolation "4 tenants" scenario (WIDE the first). */
const WIDES = [WIDE, ...[2, 3, 4].map((index) => ({ ...WIDE, tenantId: `fair-wide-${index}`, firstId: 100_000 * index }))];
/** Distinct abusive bodies per tenant sent in turn (each is new to the stored state when its turn comes again). */
const ABUSE_POOL = 12;
const PARTS = new Set((process.env.BENCH_FAIR_PARTS || 'worst,isolation,unknown,attack').split(','));
/** The tenant whose launches are measured beside the abuse: 20 live CTAs, 3 tags, 100 users with state. */
const QUIET = { tenantId: 'fair-quiet', firstId: 20_001, extraCtas: 0, users: 100 };
const FIRST_USER = 1_000_000_000;
const RANDOM_TENANTS = 40_000;
/** Unknown tenants may cost at most this many statements in all (issue 27). */
const UNKNOWN_TENANT_STATEMENTS = 100;
/** The admin routes' tenant: 1,000 draft CTAs to link to tags. */
const ADMIN = { tenantId: 'fair-admin', firstId: 5001, extraCtas: 1002, users: 1, extraStatuses: ['draft'] };
const HEALTH_TIMEOUT_MS = 2000;
const HEALTH_EVERY_MS = 250;

const startService = (dbUrl, env = {}) => startBuiltService(dbUrl, { LOG_LEVEL: 'warn', SCHEDULER_INTERVAL_MS: '0', ...env });

/** A delta listing every CTA of `ctaIds` with no machines and `entries` resetAt entries each (the first attack). */
function resetAtDelta(ctaIds, entries) {
  const base = Date.now() - 86_400_000;
  return JSON.stringify({
    ctas: ctaIds.map((ctaId) => ({
      ctaId: String(ctaId),
      activeStateMachines: {},
      resetAt: Array.from({ length: entries }, (_, index) => base + index * 1000 + ctaId),
    })),
  });
}

let machineSequence = 0;
/** A delta of one snapshot per CTA of `ctaIds`, each with `machines` new machines (the second attack). */
function machinesDelta(ctaIds, machines) {
  const now = Date.now();
  return JSON.stringify({
    ctas: ctaIds.map((ctaId) => ({
      ctaId: String(ctaId),
      activeStateMachines: Object.fromEntries(
        Array.from({ length: machines }, () => {
          const key = `m${++machineSequence}`;
          return [key, { currentState: '1', lastTransitionAt: now - machineSequence, createdAt: now - machineSequence }];
        }),
      ),
    })),
  });
}

async function post(base, pathName, body, headers) {
  const started = performance.now();
  const response = await fetch(`${base}${pathName}`, { method: 'POST', headers: { ...SDK_HEADERS, ...headers }, body });
  const text = await response.text();
  return { status: response.status, text, ms: performance.now() - started };
}

/** Probes /health every HEALTH_EVERY_MS until `stop()`; answers how many probes and how many timed out, and the slowest. */
function probeHealth(base) {
  const probes = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const probe = fetch(`${base}/health`, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) })
        .then((response) => ({ ok: response.ok, ms: performance.now() - started }))
        .catch(() => ({ ok: false, ms: performance.now() - started }));
      probes.push(probe);
      await sleep(HEALTH_EVERY_MS);
    }
  })();
  return async () => {
    running = false;
    await loop;
    const results = await Promise.all(probes);
    return {
      probes: results.length,
      failed: results.filter((result) => !result.ok).length,
      slowestMs: Math.round(Math.max(0, ...results.map((result) => result.ms))),
    };
  };
}

/**
 * The two attack deltas, each sent `times` times for a new user, timed, with /health probed
 * meanwhile; answered `status` (200, or 413 past the SDK body limit).
 */
async function measureAttack(base, ctaIds, status, times = 3) {
  const rows = [];
  for (const [name, body] of [
    ['1,000 CTAs × 60 resetAt entries, no machines', () => resetAtDelta(ctaIds, 60)],
    ['1,000 snapshots × 10 new machines', () => machinesDelta(ctaIds, 10)],
  ]) {
    const times_ = [];
    let bytes = 0;
    const stop = probeHealth(base);
    for (let attempt = 0; attempt < times; attempt++) {
      const text = body();
      bytes = Buffer.byteLength(text);
      const answer = await post(base, DELTA_PATH, text, { 'x-tenant-id': WIDE.tenantId, 'auth-userid': String(500 + attempt) });
      if (answer.status !== status) throw new Error(`${name}: answered ${answer.status} ${answer.text.slice(0, 200)}`);
      times_.push(Math.round(answer.ms));
      // Not timed: the large-body lane's pause after this request (the next one would wait it out).
      await sleep(lanePauseMs(bytes, answer.ms));
    }
    const health = await stop();
    const row = { name, bytes, status, ms: times_, health };
    console.log(
      `    ${name} (${Math.round(bytes / 1000)} KB): ${status} in ${times_.join(', ')} ms; /health: ${health.failed} of ${health.probes} probes over ${HEALTH_TIMEOUT_MS} ms, slowest ${health.slowestMs} ms`,
    );
    rows.push(row);
  }
  return rows;
}

/** `amount` requests (or `duration` s) of `path` for a new random tenant id each, through autocannon. */
function randomTenants(base, path, body, options) {
  return autocannon({
    url: base,
    connections: 20,
    ...options,
    requests: [
      {
        method: 'POST',
        path,
        setupRequest: (request) => ({
          ...request,
          headers: { ...SDK_HEADERS, 'x-tenant-id': `rnd-${Math.random().toString(36).slice(2, 14)}`, 'auth-userid': '1' },
          body,
        }),
      },
    ],
  });
}

/** The statements random tenant ids cost, counted by a proxy between a fresh instance and MariaDB. */
async function measureUnknownTenants(url) {
  const proxy = await countingProxy(new URL(url));
  const proxied = Object.assign(new URL(url), { hostname: '127.0.0.1', port: String(proxy.port) });
  const service = await startService(proxied.toString());
  try {
    const rows = {};
    for (const [name, path, body, options] of [
      [`${RANDOM_TENANTS.toLocaleString('en')} launches`, '/cta/active/state-machines/', '{}', { amount: RANDOM_TENANTS }],
      [
        '8 s of deltas with a snapshot',
        DELTA_PATH,
        JSON.stringify({ ctas: [{ ctaId: '1', activeStateMachines: { k: { currentState: '1', lastTransitionAt: 1, createdAt: 1 } } }] }),
        { duration: 8, connections: 100 },
      ],
    ]) {
      const before = proxy.counter.commands;
      const result = await randomTenants(service.base, path, body, options);
      const statements = proxy.counter.commands - before;
      const seconds = result.duration;
      rows[name] = { requests: result.requests.total, seconds, statements, non2xx: result.non2xx, errors: result.errors };
      console.log(
        `  ${name} for random tenant ids: ${result.requests.total} requests in ${seconds.toFixed(1)} s, ${statements} statements to MariaDB` +
          `${result.non2xx || result.errors ? ` (${result.non2xx} non-2xx, ${result.errors} errors)` : ''}`,
      );
    }
    return { rows, target: UNKNOWN_TENANT_STATEMENTS };
  } finally {
    await service.stop();
    await proxy.close();
  }
}

/**
 * The isolation scenarios of issues 27 and 39, each 4 connections: the worst deltas for one app user, for an
 * app user per connection, for a tenant per connection (`wideCtaIds`: the live CTAs of each of WIDES), and
 * 1 MB CTA creates (the worst create body) of a tenant per connection.
 */
function isolationScenarios(wideCtaIds) {
  const pools = wideCtaIds.map((ids) => {
    const bodies = worstSdkBodies(ids, TAGS);
    return Array.from({ length: ABUSE_POOL }, (_, index) => bodies[index % bodies.length][1]());
  });
  const create = worstCtaCreate();
  return [
    { name: 'worst deltas for one app user', request: (_connection, n) => sdkDelta(WIDE.tenantId, '9001', pools[0][n % ABUSE_POOL]) },
    {
      name: `worst deltas for ${ABUSE_CONNECTIONS} app users`,
      request: (connection, n) => sdkDelta(WIDE.tenantId, String(9101 + connection), pools[0][n % ABUSE_POOL]),
    },
    {
      name: `worst deltas for ${ABUSE_CONNECTIONS} tenants`,
      request: (connection, n) => sdkDelta(WIDES[connection].tenantId, '9201', pools[connection][n % ABUSE_POOL]),
    },
    {
      name: `1 MB CTA creates of ${ABUSE_CONNECTIONS} tenants`,
      request: (connection, n) => ({
        method: 'POST',
        path: '/engine/ctas/',
        headers: { 'content-type': 'application/json', 'x-tenant-id': `fair-create-${connection}`, user: 'bench@example.com' },
        body: create(`isolation-${n}-${Date.now()}`),
      }),
    },
  ];
}

async function benchFairWork() {
  console.log('\nfair, bounded work per request (issue 27)');
  if (!(await mysqlReachable())) {
    console.log('  MariaDB not reachable: not measured');
    return {};
  }
  const url = (await recreateSchema(`${new URL(MYSQL_URL).pathname.slice(1)}_fair`)).toString();
  const migrator = await startService(url);
  await migrator.stop();
  const db = await openDatabase(url);
  const ctaIds = await seedTenant(db, { ...WIDE, now: Date.now() });
  const wideCtaIds = [ctaIds];
  if (PARTS.has('isolation')) for (const wide of WIDES.slice(1)) wideCtaIds.push(await seedTenant(db, { ...wide, now: Date.now() }));
  const adminLive = await seedTenant(db, { ...ADMIN, now: Date.now() });
  await seedTenant(db, { ...QUIET, now: Date.now() });
  await db.close();
  const draftIds = Array.from({ length: ADMIN.extraCtas }, (_, index) => adminLive[adminLive.length - 1] + 1 + index);
  const results = {};
  const service = await startService(url);
  try {
    const admin = { 'content-type': 'application/json', 'x-tenant-id': ADMIN.tenantId, user: 'bench@example.com' };
    const cohort = await fetch(`${service.base}/engine/cohorts/`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ name: 'worst-static', kind: 'static' }),
    });
    if (cohort.status !== 200) throw new Error(`cohort create answered ${cohort.status}`);
    if (PARTS.has('worst'))
      results.worstBodies = await measureWorstBodies(service, {
        databaseUrl: url,
        wide: WIDE.tenantId,
        ctaIds,
        tags: TAGS,
        admin: ADMIN.tenantId,
        draftIds: draftIds.slice(0, -1),
        draftCta: draftIds[draftIds.length - 1],
      });
    if (PARTS.has('isolation')) {
      console.log('  isolation under abuse:');
      results.isolation = await measureIsolation(
        service,
        { tenantId: QUIET.tenantId, users: QUIET.users, firstUser: FIRST_USER },
        isolationScenarios(wideCtaIds),
      );
    }
  } finally {
    await service.stop();
  }
  if (PARTS.has('unknown')) results.unknownTenants = await measureUnknownTenants(url);
  if (!PARTS.has('attack')) return results;
  // With the SDK body limit below these bodies (a delta over it is refused), and as configured by
  // default (1 MiB, the general limit too): then the merge itself is measured.
  for (const [label, env, status] of [
    ['SDK_BODY_LIMIT_BYTES=524288', { SDK_BODY_LIMIT_BYTES: '524288' }, 413],
    ['default SDK body limit (1 MiB)', {}, 200],
  ]) {
    const service = await startService(url, env);
    try {
      console.log(`  the attack, ${label}:`);
      results[status === 200 ? 'attackMerged' : 'attackRefused'] = await measureAttack(service.base, ctaIds, status);
    } finally {
      await service.stop();
    }
  }
  return results;
}

/** The targets of issue 27, as [name, ok, detail], from what benchFairWork measured. */
function fairWorkTargets(results) {
  const checks = [];
  for (const row of results.worstBodies?.worst ?? []) {
    const { targetRatio, targetSlackMs } = results.worstBodies;
    checks.push([
      `${row.route}: worst body <= ${targetRatio} x (JSON.parse + storage floor) + ${targetSlackMs} ms`,
      row.ms <= row.targetMs,
      `${row.ms} ms against ${row.targetMs} ms (JSON.parse ${row.parseMs} ms, storage floor ${row.floorMs} ms; ${row.name})`,
    ]);
  }
  for (const round of results.isolation?.rounds ?? []) {
    const { throughputShare, p99Multiple } = results.isolation.targets;
    const name = `isolation, ${round.scenario}, round ${round.round}`;
    checks.push([
      `${name}: another tenant keeps >= ${100 * throughputShare}% of its launches`,
      round.share >= throughputShare,
      `${Math.round(100 * round.share)}%`,
    ]);
    checks.push([
      `${name}: its launch p99 <= ${p99Multiple}x quiet`,
      round.p99Multiple <= p99Multiple,
      `${round.p99Multiple.toFixed(1)}x (${round.abused.p99Ms} ms against ${round.quiet.p99Ms} ms)`,
    ]);
    checks.push([`${name}: /health within 1 s throughout`, round.health.late === 0, `slowest ${round.health.slowestMs ?? 'timed out'} ms`]);
  }
  for (const [name, row] of Object.entries(results.unknownTenants?.rows ?? {})) {
    checks.push([
      `${name} for random tenant ids: < ${results.unknownTenants.target} statements`,
      row.statements < results.unknownTenants.target,
      `${row.statements}`,
    ]);
  }
  return checks.map(([name, ok, detail]) => ({ name, ok, detail }));
}

module.exports = { benchFairWork, fairWorkTargets };

if (require.main === module) {
  benchFairWork()
    .then((results) => {
      fairWorkTargets(results).forEach((entry) => console.log(`${entry.ok ? 'PASS' : 'FAIL'} ${entry.name}: ${entry.detail}`));
      fs.writeFileSync(
        path.join(__dirname, 'fair-work-results.json'),
        `${JSON.stringify({ at: new Date().toISOString(), ...results }, null, 2)}\n`,
      );
      console.log('\nwritten to bench/fair-work-results.json');
    })
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}

'use strict';
/**
 * Fair, bounded work per request (issue 27), on the built service and MariaDB; part of
 * `npm run bench`, or alone after `npm run build`: `node bench/fair-work.js`.
 *
 * - the attack: one delta of ~893 KB for a tenant with 1,000 live CTAs (every CTA with 60
 *   `resetAt` entries), and one of 1,000 snapshots × 10 new machines; the time each takes,
 *   and /health probed meanwhile.
 *
 *   BENCH_MYSQL_URL   default mysql://root@127.0.0.1:3306/cta_bench (schema cta_bench_fair recreated); "off" skips
 */
const fs = require('node:fs');
const path = require('node:path');
const { openDatabase, seedTenant } = require('./seed');
const { startService: startBuiltService, mysqlReachable, recreateSchema, sleep } = require('./service');

const SDK_HEADERS = { 'content-type': 'application/json', api_version: '1' };
const DELTA_PATH = '/cta/state-machines/snapshot/delta/';
const WIDE = { tenantId: 'fair-wide', firstId: 1, extraCtas: 0, users: 1, liveCtas: 1000 };
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

/** The two attack deltas, each sent `times` times for a new user, timed, with /health probed meanwhile. */
async function measureAttack(base, ctaIds, times = 3) {
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
      if (answer.status !== 200) throw new Error(`${name}: answered ${answer.status} ${answer.text.slice(0, 200)}`);
      times_.push(Math.round(answer.ms));
    }
    const health = await stop();
    const row = { name, bytes, ms: times_, health };
    console.log(
      `  ${name} (${Math.round(bytes / 1000)} KB): ${times_.join(', ')} ms; /health: ${health.failed} of ${health.probes} probes over ${HEALTH_TIMEOUT_MS} ms, slowest ${health.slowestMs} ms`,
    );
    rows.push(row);
  }
  return rows;
}

async function benchFairWork() {
  console.log('\nfair, bounded work per request (issue 27)');
  if (!(await mysqlReachable())) {
    console.log('  MariaDB not reachable: not measured');
    return {};
  }
  const url = (await recreateSchema('cta_bench_fair')).toString();
  const migrator = await startService(url);
  await migrator.stop();
  const db = await openDatabase(url);
  const ctaIds = await seedTenant(db, { ...WIDE, now: Date.now() });
  await db.close();
  const service = await startService(url);
  try {
    return { attack: await measureAttack(service.base, ctaIds) };
  } finally {
    await service.stop();
  }
}

module.exports = { benchFairWork };

if (require.main === module) {
  benchFairWork()
    .then((results) => {
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

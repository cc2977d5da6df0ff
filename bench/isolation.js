'use strict';
/**
 * Isolation under abuse (issues 27 and 39), part of bench/fair-work.js: another tenant's
 * launches (closed loop, rotating users) alone, then while 4 abusive connections send large bodies,
 * in each scenario: the worst deltas for one app user, for 4 app users (one per connection), for
 * 4 tenants (one per connection), and 1 MB CTA creates of 4 tenants. Its throughput and p99 under
 * abuse against alone, and /health probed throughout. In ROUNDS rounds (each scenario's quiet run
 * right before its abused one), since the load of a shared machine drifts.
 */
const autocannon = require('autocannon');
const { sleep, launchRequest } = require('./service');

const ROUND_SECONDS = Number(process.env.BENCH_ISOLATION_S || 8);
const LAUNCH_CONNECTIONS = 10;
const ABUSE_CONNECTIONS = 4;
const HEALTH_EVERY_MS = 100;
const HEALTH_LIMIT_MS = 1000;
const SDK_HEADERS = { 'content-type': 'application/json', api_version: '1', app_version: '5.2.0', package_name: 'com.example.app' };
const TARGETS = { throughputShare: 0.5, p99Multiple: 3 };

/** /health every HEALTH_EVERY_MS until stopped: the slowest answer, and how many took HEALTH_LIMIT_MS or failed. */
function probeHealth(base) {
  const times = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const probe = fetch(`${base}/health`, { signal: AbortSignal.timeout(HEALTH_LIMIT_MS) })
        .then((response) => (response.ok ? performance.now() - started : Infinity))
        .catch(() => Infinity);
      times.push(probe);
      await sleep(HEALTH_EVERY_MS);
    }
  })();
  return async () => {
    running = false;
    await loop;
    const results = await Promise.all(times);
    const slowest = Math.max(...results);
    return {
      probes: results.length,
      late: results.filter((ms) => ms >= HEALTH_LIMIT_MS).length,
      slowestMs: Number.isFinite(slowest) ? Math.round(slowest) : null,
    };
  };
}

const launches = (base, tenantId, users, firstUser) => {
  let next = 0;
  return autocannon({
    url: base,
    connections: LAUNCH_CONNECTIONS,
    duration: ROUND_SECONDS,
    requests: [launchRequest(() => ({ ...SDK_HEADERS, 'x-tenant-id': tenantId, 'auth-userid': String(firstUser + (next++ % users)) }))],
  });
};

/**
 * ABUSE_CONNECTIONS connections sending `scenario.request(connection, n)` ({method, path, headers, body}: the
 * n-th request overall, from connection 0–3) for the round.
 */
const abuse = (base, scenario) => {
  let connections = 0;
  let next = 0;
  const statuses = {};
  const run = autocannon({
    url: base,
    connections: ABUSE_CONNECTIONS,
    duration: ROUND_SECONDS,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        setupRequest: (request, context) => {
          context.connection ??= connections++ % ABUSE_CONNECTIONS;
          return { ...request, ...scenario.request(context.connection, next++) };
        },
      },
    ],
  });
  run.on('response', (_client, status) => (statuses[status] = (statuses[status] ?? 0) + 1));
  return run.then((result) => ({ requests: result.requests.total, statuses }));
};

const row = (result) => ({ requestsPerSecond: Math.round(result.requests.average), p50Ms: result.latency.p50, p99Ms: result.latency.p99 });

/** An SDK delta request of `tenantId` and `userId` with `body`. */
const sdkDelta = (tenantId, userId, body) => ({
  method: 'POST',
  path: '/cta/state-machines/snapshot/delta/',
  headers: { ...SDK_HEADERS, 'x-tenant-id': tenantId, 'auth-userid': userId },
  body,
});

/**
 * `victim`: {tenantId, users, firstUser} launched; `scenarios`: [{name, request(connection, n)}] (see `abuse`).
 */
async function measureIsolation(service, victim, scenarios, rounds = 2) {
  const results = [];
  for (let round = 1; round <= rounds; round++) {
    for (const scenario of scenarios) {
      let stop = probeHealth(service.base);
      const quiet = row(await launches(service.base, victim.tenantId, victim.users, victim.firstUser));
      const quietHealth = await stop();
      stop = probeHealth(service.base);
      const [abused, abusive] = await Promise.all([
        launches(service.base, victim.tenantId, victim.users, victim.firstUser).then(row),
        abuse(service.base, scenario),
      ]);
      const health = await stop();
      const share = abused.requestsPerSecond / quiet.requestsPerSecond;
      const p99Multiple = abused.p99Ms / Math.max(1, quiet.p99Ms);
      const entry = { scenario: scenario.name, round, quiet, quietHealth, abused, abusive, health, share, p99Multiple };
      results.push(entry);
      const statuses = Object.entries(abusive.statuses)
        .map(([status, count]) => `${count}× ${status}`)
        .join(', ');
      console.log(
        `  round ${round}, ${ABUSE_CONNECTIONS} connections of ${scenario.name} (${statuses}): launches of another tenant ` +
          `${abused.requestsPerSecond} req/s against ${quiet.requestsPerSecond} alone (${Math.round(100 * share)}%), ` +
          `p99 ${abused.p99Ms} ms against ${quiet.p99Ms} ms (${p99Multiple.toFixed(1)}×); /health slowest ${health.slowestMs ?? 'timed out'} ms, ` +
          `${health.late} of ${health.probes} at ${HEALTH_LIMIT_MS} ms or more`,
      );
    }
  }
  return {
    rounds: results,
    targets: TARGETS,
    connections: { launches: LAUNCH_CONNECTIONS, abuse: ABUSE_CONNECTIONS },
    seconds: ROUND_SECONDS,
  };
}

module.exports = { measureIsolation, sdkDelta, TARGETS, HEALTH_LIMIT_MS, ABUSE_CONNECTIONS };

'use strict';
/**
 * Isolation under abuse (issue 27), part of bench/fair-work.js: another tenant's
 * launches (closed loop, rotating users) alone, then while 4 connections send the worst deltas for
 * one app user; its throughput and p99 under abuse against alone, and /health probed throughout.
 * In ROUNDS rounds (quiet, then abused), since the load of a shared machine drifts.
 */
const autocannon = require('autocannon');
const { sleep } = require('./service');

const ROUND_SECONDS = Number(process.env.BENCH_ISOLATION_S || 8);
const LAUNCH_CONNECTIONS = 10;
const ABUSE_CONNECTIONS = 4;
const HEALTH_EVERY_MS = 100;
const HEALTH_LIMIT_MS = 1000;
/** Distinct abusive bodies sent in turn (each is new to the stored state when its turn comes again). */
const ABUSE_POOL = 12;
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
    requests: [
      {
        method: 'POST',
        path: '/cta/active/state-machines/',
        body: '{}',
        setupRequest: (request) => ({
          ...request,
          headers: { ...SDK_HEADERS, 'x-tenant-id': tenantId, 'auth-userid': String(firstUser + (next++ % users)) },
        }),
      },
    ],
  });
};

/** ABUSE_CONNECTIONS connections sending `bodies` in turn as deltas of one user, for the round. */
const abuse = (base, tenantId, userId, bodies) => {
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
        path: '/cta/state-machines/snapshot/delta/',
        setupRequest: (request) => ({
          ...request,
          headers: { ...SDK_HEADERS, 'x-tenant-id': tenantId, 'auth-userid': userId },
          body: bodies[next++ % bodies.length],
        }),
      },
    ],
  });
  run.on('response', (_client, status) => (statuses[status] = (statuses[status] ?? 0) + 1));
  return run.then((result) => ({ requests: result.requests.total, statuses }));
};

const row = (result) => ({ requestsPerSecond: Math.round(result.requests.average), p50Ms: result.latency.p50, p99Ms: result.latency.p99 });

/**
 * `victim`: {tenantId, users, firstUser} launched; `abuser`: {tenantId, userId, bodies: [[name, make]]}, the worst
 * delta bodies of bench/worst-bodies.js.
 */
async function measureIsolation(service, victim, abuser, rounds = 2) {
  const bodies = Array.from({ length: ABUSE_POOL }, (_, index) => abuser.bodies[index % abuser.bodies.length][1]());
  const results = [];
  for (let round = 1; round <= rounds; round++) {
    let stop = probeHealth(service.base);
    const quiet = row(await launches(service.base, victim.tenantId, victim.users, victim.firstUser));
    const quietHealth = await stop();
    stop = probeHealth(service.base);
    const [abused, abusive] = await Promise.all([
      launches(service.base, victim.tenantId, victim.users, victim.firstUser).then(row),
      abuse(service.base, abuser.tenantId, abuser.userId, bodies),
    ]);
    const health = await stop();
    const share = abused.requestsPerSecond / quiet.requestsPerSecond;
    const p99Multiple = abused.p99Ms / Math.max(1, quiet.p99Ms);
    const entry = { round, quiet, quietHealth, abused, abusive, health, share, p99Multiple };
    results.push(entry);
    const statuses = Object.entries(abusive.statuses)
      .map(([status, count]) => `${count}× ${status}`)
      .join(', ');
    console.log(
      `  round ${round}: launches of another tenant alone ${quiet.requestsPerSecond} req/s, p99 ${quiet.p99Ms} ms; ` +
        `beside ${ABUSE_CONNECTIONS} connections of worst deltas for one user (${statuses}): ${abused.requestsPerSecond} req/s ` +
        `(${Math.round(100 * share)}%), p99 ${abused.p99Ms} ms (${p99Multiple.toFixed(1)}×); /health slowest ${health.slowestMs ?? 'timed out'} ms, ` +
        `${health.late} of ${health.probes} at ${HEALTH_LIMIT_MS} ms or more`,
    );
  }
  return {
    rounds: results,
    targets: TARGETS,
    connections: { launches: LAUNCH_CONNECTIONS, abuse: ABUSE_CONNECTIONS },
    seconds: ROUND_SECONDS,
  };
}

module.exports = { measureIsolation, TARGETS, HEALTH_LIMIT_MS };
